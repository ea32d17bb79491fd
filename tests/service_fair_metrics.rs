//! The per-client metrics keep a bounded label set: `anonymous`, the first names seen
//! up to the limit, and `other` for the rest.
mod common;

use climbot::pb;
use common::*;

#[tokio::test]
async fn client_labels_are_bounded() {
    let mut config = test_config();
    config.client_label_limit = 2;
    let server = start(config).await;
    let mut client = server.client().await;
    let normal = || select(follow_view(), pb::Difficulty::Normal);
    for name in ["alpha", "beta", "gamma", "delta", "alpha"] {
        client.select_play(as_client(normal(), name)).await.unwrap();
    }
    client
        .select_play(tonic::Request::new(normal()))
        .await
        .unwrap();
    // EASY takes no slot and is not counted per client.
    client
        .select_play(as_client(
            select(follow_view(), pb::Difficulty::Easy),
            "epsilon",
        ))
        .await
        .unwrap();

    let scraped = server.scrape().await;
    let calls = |label: &str| {
        let line = format!("climbot_client_calls_total{{client=\"{label}\"}} ");
        scraped
            .lines()
            .find_map(|l| l.strip_prefix(line.as_str()))
            .map(|v| v.trim().parse::<f64>().unwrap())
    };
    assert_eq!(calls("alpha"), Some(2.0), "{scraped}");
    assert_eq!(calls("beta"), Some(1.0));
    assert_eq!(calls("other"), Some(2.0), "gamma and delta");
    assert_eq!(calls("anonymous"), Some(1.0));
    for unlabelled in ["gamma", "delta", "epsilon"] {
        assert!(
            !scraped.contains(&format!("client=\"{unlabelled}\"")),
            "{scraped}"
        );
    }
    let labels: std::collections::BTreeSet<&str> = scraped
        .lines()
        .filter(|l| l.starts_with("climbot_client_"))
        .filter_map(|l| l.split("client=\"").nth(1)?.split('"').next())
        .collect();
    assert_eq!(
        labels.into_iter().collect::<Vec<_>>(),
        ["alpha", "anonymous", "beta", "other"]
    );
    assert!(scraped.contains("climbot_client_slot_seconds_sum{client=\"alpha\"}"));
    assert!(scraped.contains("climbot_client_refusals_total{client=\"alpha\"} 0"));
}
