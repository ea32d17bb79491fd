//! Every refused call is visible to an operator, whatever stage refused it: counted in
//! `climbot_requests_total` with its code (game and difficulty "unknown" when the
//! request was not read that far) and logged with its reason. Covers the transport's
//! size limit, a malformed deadline header, undecodable bytes, a broken compressed
//! body, an unknown level, a zero budget and an invalid view, on both RPCs.
mod common;

use climbot::pb;
use common::*;
use prost::Message;
use tonic::Code;

const SELECT_PLAY: &str = "/climbot.v1.BotService/SelectPlay";
const LIST_LEGAL_PLAYS: &str = "/climbot.v1.BotService/ListLegalPlays";

/// The value of one `climbot_requests_total` series (0 when absent).
fn requests(scrape: &str, rpc: &str, game: &str, difficulty: &str, code: &str) -> f64 {
    let series = format!(
        r#"climbot_requests_total{{rpc="{rpc}",game="{game}",difficulty="{difficulty}",code="{code}"}} "#
    );
    scrape
        .lines()
        .find_map(|l| l.strip_prefix(series.as_str()))
        .map_or(0.0, |v| v.trim().parse().unwrap())
}

/// How a call is sent: through the generated client, or as raw bytes.
enum Send {
    Select(pb::SelectPlayRequest),
    List(pb::ListLegalPlaysRequest),
    /// A path, extra headers, the frame's bytes and whether they are flagged compressed.
    Raw(
        &'static str,
        &'static [(&'static str, &'static str)],
        Vec<u8>,
        bool,
    ),
}

struct Case {
    name: &'static str,
    send: Send,
    /// The code and labels the call is counted under.
    code: Code,
    labels: (&'static str, &'static str, &'static str, &'static str),
    /// What the log line's reason must contain.
    reason: &'static str,
}

fn cases() -> Vec<Case> {
    let mut oversized = follow_view();
    oversized.scores = vec![i64::MIN; 20_000];
    let mut bad_suit = follow_view();
    bad_suit.hand[0].suit = 0;
    let garbage = vec![0xff; 16];
    // A malformed deadline header is quoted in its refusal: a long one makes a reason
    // longer than a log line carries.
    let long_timeout: &'static str = Box::leak(format!("{}S", "9".repeat(500)).into_boxed_str());
    let long_timeout_header: &'static [(&'static str, &'static str)] =
        Box::leak(Box::new([("grpc-timeout", long_timeout)]));
    let request = select(follow_view(), pb::Difficulty::Easy).encode_to_vec();
    vec![
        Case {
            name: "a malformed grpc-timeout, its reason cut in the log",
            send: Send::Raw(SELECT_PLAY, long_timeout_header, request, false),
            code: Code::InvalidArgument,
            labels: ("select_play", "unknown", "unknown", "invalid_argument"),
            reason: "grpc-timeout: malformed header",
        },
        Case {
            name: "over the size limit",
            send: Send::Select(select(oversized.clone(), pb::Difficulty::Easy)),
            code: Code::OutOfRange,
            labels: ("select_play", "unknown", "unknown", "out_of_range"),
            reason: "message length too large",
        },
        Case {
            name: "over the size limit, ListLegalPlays",
            send: Send::List(pb::ListLegalPlaysRequest {
                view: Some(game_view(oversized)),
            }),
            code: Code::OutOfRange,
            labels: ("list_legal_plays", "unknown", "none", "out_of_range"),
            reason: "message length too large",
        },
        Case {
            name: "garbage bytes",
            send: Send::Raw(SELECT_PLAY, &[], garbage.clone(), false),
            code: Code::Internal,
            labels: ("select_play", "unknown", "unknown", "internal"),
            reason: "failed to decode Protobuf message",
        },
        Case {
            name: "garbage bytes, ListLegalPlays",
            send: Send::Raw(LIST_LEGAL_PLAYS, &[], garbage.clone(), false),
            code: Code::Internal,
            labels: ("list_legal_plays", "unknown", "none", "internal"),
            reason: "failed to decode Protobuf message",
        },
        Case {
            name: "a gzip body that is not gzip",
            send: Send::Raw(SELECT_PLAY, &[("grpc-encoding", "gzip")], garbage, true),
            code: Code::Internal,
            labels: ("select_play", "unknown", "unknown", "internal"),
            reason: "decompress",
        },
        Case {
            name: "an unknown level",
            send: Send::Select(pb::SelectPlayRequest {
                difficulty: 9,
                ..select(follow_view(), pb::Difficulty::Easy)
            }),
            code: Code::InvalidArgument,
            labels: ("select_play", "unknown", "unknown", "invalid_argument"),
            reason: "difficulty: unknown value 9",
        },
        Case {
            name: "a zero budget",
            send: Send::Select(pb::SelectPlayRequest {
                budget_ms: Some(0),
                ..select(follow_view(), pb::Difficulty::Expert)
            }),
            code: Code::InvalidArgument,
            labels: ("select_play", "lexio", "expert", "invalid_argument"),
            reason: "budget_ms: must be at least 1",
        },
        Case {
            name: "an invalid view",
            send: Send::Select(select(bad_suit.clone(), pb::Difficulty::Hard)),
            code: Code::InvalidArgument,
            labels: ("select_play", "lexio", "hard", "invalid_argument"),
            reason: "view.lexio.hand[0].suit",
        },
        Case {
            name: "an invalid view, ListLegalPlays",
            send: Send::List(pb::ListLegalPlaysRequest {
                view: Some(game_view(bad_suit)),
            }),
            code: Code::InvalidArgument,
            labels: ("list_legal_plays", "lexio", "none", "invalid_argument"),
            reason: "view.lexio.hand[0].suit",
        },
    ]
}

#[tokio::test]
async fn every_refusal_is_counted_with_its_code_and_logged_with_its_reason() {
    capture_logs();
    let server = start(test_config()).await;
    let mut client = server.client().await;
    let mut h2 = h2_connect(server.addr).await;

    for case in cases() {
        let before = server.scrape().await;
        let log_before = captured_log_len();
        let status = match case.send {
            Send::Select(request) => client.select_play(request).await.unwrap_err(),
            Send::List(request) => client.list_legal_plays(request).await.unwrap_err(),
            Send::Raw(path, headers, bytes, compressed) => {
                let (response, mut body) =
                    h2.send_request(grpc_head(path, headers), false).unwrap();
                body.send_data(grpc_frame(&bytes, compressed), true)
                    .unwrap();
                raw_answer(response).await.unwrap().status()
            }
        };
        assert_eq!(status.code(), case.code, "{}: {status:?}", case.name);

        let after = server.scrape().await;
        let (rpc, game, difficulty, code) = case.labels;
        assert_eq!(
            requests(&after, rpc, game, difficulty, code)
                - requests(&before, rpc, game, difficulty, code),
            1.0,
            "{}: not counted under {:?}\n{after}",
            case.name,
            case.labels
        );

        let log = captured_log(log_before);
        let lines: Vec<&str> = log.lines().filter(|l| l.contains("call refused")).collect();
        assert_eq!(
            lines.len(),
            1,
            "{}: one line per refusal:\n{log}",
            case.name
        );
        let line = lines[0];
        assert!(
            line.contains(&format!("rpc=\"{rpc}\""))
                && line.contains(&format!("outcome=\"{code}\"")),
            "{}: {line}",
            case.name
        );
        let reason = line
            .split_once("reason=")
            .unwrap_or_else(|| panic!("{}: no reason in {line}", case.name))
            .1;
        assert!(
            reason.contains(case.reason),
            "{}: the reason should contain {:?}: {line}",
            case.name,
            case.reason
        );
        // Cut to a bounded length: 200 characters, the cut's mark and the quotes (the
        // log escapes the quotes inside).
        let unescaped = reason.replace("\\\"", "\"");
        assert!(
            unescaped.chars().count() <= 200 + 5,
            "{}: {line}",
            case.name
        );
        if status.message().chars().count() > 200 {
            assert!(reason.ends_with("...\""), "{}: {line}", case.name);
        }
        // The client was told the same reason.
        assert!(
            status.message().contains(case.reason),
            "{}: {status:?}",
            case.name
        );
    }
}
