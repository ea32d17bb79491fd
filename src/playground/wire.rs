//! The playground's JSON is the API's own: views, decisions and explanations in
//! canonical proto3 JSON (proto field names, enums by name), through the compiled
//! descriptors, so that a page reads what a gRPC client reads.

use super::error::ApiError;
use crate::pb;
use prost::Message;
use prost_reflect::{DescriptorPool, DynamicMessage, MessageDescriptor, SerializeOptions};
use serde_json::Value;
use std::sync::LazyLock;

static POOL: LazyLock<DescriptorPool> = LazyLock::new(|| {
    DescriptorPool::decode(pb::FILE_DESCRIPTOR_SET).expect("the compiled descriptor set decodes")
});

fn descriptor(name: &str) -> MessageDescriptor {
    POOL.get_message_by_name(name)
        .unwrap_or_else(|| panic!("{name} is in the descriptor set"))
}

fn to_json(name: &str, message: &impl Message) -> Value {
    let options = SerializeOptions::new()
        .use_proto_field_name(true)
        .stringify_64_bit_integers(false)
        .skip_default_fields(false);
    // A message always decodes with its own descriptor and serializes to JSON.
    DynamicMessage::decode(descriptor(name), &*message.encode_to_vec())
        .ok()
        .and_then(|m| {
            m.serialize_with_options(serde_json::value::Serializer, &options)
                .ok()
        })
        .unwrap_or(Value::Null)
}

/// A view in proto3 JSON, e.g. `{"lexio": {"seat": 0, "hand": [...], ...}}`.
pub fn view_to_json(view: &pb::GameView) -> Value {
    to_json("climbot.v1.GameView", view)
}

/// A decision in proto3 JSON, e.g. `{"lexio": {"pass": {}}}`.
pub fn decision_to_json(decision: &pb::Decision) -> Value {
    to_json("climbot.v1.Decision", decision)
}

/// A scored candidate in proto3 JSON.
pub fn candidate_to_json(candidate: &pb::ExplainedCandidate) -> Value {
    to_json("climbot.v1.ExplainedCandidate", candidate)
}

/// An analysis in proto3 JSON (doubles that are not finite, the intervals of a
/// decision with fewer than two playouts, come as strings such as `"NaN"`).
pub fn analysis_to_json(analysis: &pb::AnalyzePlayResponse) -> Value {
    to_json("climbot.v1.AnalyzePlayResponse", analysis)
}

/// The number of the deal a view in proto3 JSON belongs to: Lexio's `round`,
/// Daifugo's `game`, The Great Dalmuti's `hand_number` (1 for the first deal).
pub fn deal_number(view: &Value) -> Option<u64> {
    let game = view.as_object()?.values().next()?;
    ["round", "game", "hand_number"]
        .iter()
        .find_map(|field| game.get(field)?.as_u64())
}

/// A `climbot.v1.Decision` read from proto3 JSON; when it is not one, the request's
/// `decision` field refused with the reason.
pub fn decision_from_json(json: &Value) -> Result<pb::Decision, ApiError> {
    let refused = |reason: String| ApiError::invalid("decision", reason);
    let message = DynamicMessage::deserialize(descriptor("climbot.v1.Decision"), json)
        .map_err(|e| refused(format!("not a climbot.v1.Decision in proto3 JSON: {e}")))?;
    message
        .transcode_to::<pb::Decision>()
        .map_err(|e| refused(format!("not a climbot.v1.Decision: {e}")))
}

/// A view without what only its seat may see (its hand and what it learnt in an
/// exchange or a tax), for showing another seat's view at a table with a human.
pub fn without_private_fields(view: &Value) -> Value {
    let mut view = view.clone();
    if let Some(games) = view.as_object_mut() {
        for game in games.values_mut() {
            if let Some(fields) = game.as_object_mut() {
                for private in [
                    "hand",
                    "exchange_known",
                    "tax_known",
                    "tax_return",
                    "give_back",
                ] {
                    fields.remove(private);
                }
            }
        }
    }
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn decisions_round_trip_through_json() {
        let pass = pb::Decision {
            game: Some(pb::decision::Game::Lexio(pb::LexioDecision {
                decision: Some(pb::lexio_decision::Decision::Pass(pb::LexioPass {})),
            })),
        };
        let json = decision_to_json(&pass);
        assert_eq!(json, json!({"lexio": {"pass": {}}}));
        assert_eq!(decision_from_json(&json).unwrap(), pass);
    }

    #[test]
    fn malformed_decisions_are_refused_with_a_reason() {
        for bad in [
            json!(1),
            json!({"chess": {}}),
            json!({"lexio": {"play": {"tiles": "x"}}}),
        ] {
            let e = decision_from_json(&bad).unwrap_err();
            assert_eq!(e.field.as_deref(), Some("decision"));
            assert!(
                e.message.starts_with("not a climbot.v1.Decision"),
                "{bad}: {e:?}"
            );
        }
    }

    #[test]
    fn the_deal_number_is_read_in_every_game() {
        assert_eq!(deal_number(&json!({"lexio": {"round": 3}})), Some(3));
        assert_eq!(deal_number(&json!({"daifugo": {"game": 2}})), Some(2));
        assert_eq!(
            deal_number(&json!({"dalmuti": {"hand_number": 1}})),
            Some(1)
        );
        assert_eq!(deal_number(&json!({"dalmuti": {}})), None);
        assert_eq!(deal_number(&json!(null)), None);
    }

    #[test]
    fn private_fields_are_removed() {
        let view = json!({"daifugo": {"seat": 1, "hand": [1], "exchange_known": {}, "game": 2}});
        assert_eq!(
            without_private_fields(&view),
            json!({"daifugo": {"seat": 1, "game": 2}})
        );
    }
}
