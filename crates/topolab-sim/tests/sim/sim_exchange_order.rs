//! An exchange's message order: sequential (each message whole, one after another) against
//! interleaved (one packet of each in turn, what a halo exchange posting all its sends at once
//! puts on the wire). Two sources on one router each send P packets to endpoint 2 and P to
//! endpoint 3. In sequential order both first share endpoint 2's ejection link, then endpoint
//! 3's: about 4P cycles. Interleaved, each ejection link takes one packet a cycle from the two
//! sources together: about 2P, the injection bound. Unequal sizes and a per-source total beyond
//! a u32 are refused by name.

use crate::common::short;
use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_core::traffic::{Exchange, MessageOrder};
use topolab_sim::{run_exchange, Prepared};

const P: u32 = 400;

fn two_sources_two_sinks(order: MessageOrder) -> Exchange {
    let both = vec![(2, P), (3, P)];
    Exchange {
        name: format!("{order:?}"),
        per_source: vec![both.clone(), both],
        order,
    }
}

/// One router with four endpoints.
fn one_router() -> Prepared {
    let net = build_str("mesh:dims=1,p=4").unwrap();
    Prepared::new(&net, "min", &short(&[]), &Silent).unwrap()
}

fn completion(order: MessageOrder) -> u64 {
    let done = run_exchange(&one_router(), &two_sources_two_sinks(order), &Silent).unwrap();
    assert_eq!(done.delivered_packets, 4 * P as u64, "{order:?}");
    done.completion_cycles
}

#[test]
fn interleaved_messages_share_the_sinks_and_sequential_ones_queue_for_them() {
    let interleaved = completion(MessageOrder::Interleaved);
    let sequential = completion(MessageOrder::Sequential);
    // Each source injects 2P packets at one a cycle: 2P is a lower bound for both orders.
    assert!(
        (2 * P as u64..=5 * P as u64 / 2).contains(&interleaved),
        "interleaved: {interleaved} cycles, expected about 2P = {}",
        2 * P
    );
    assert!(
        sequential >= 7 * P as u64 / 2,
        "sequential: {sequential} cycles, expected about 4P = {}",
        4 * P
    );
}

#[test]
fn interleaved_order_refuses_messages_of_different_sizes() {
    let prep = one_router();
    let exchange = Exchange {
        name: "uneven".into(),
        per_source: vec![vec![(1, 3)], vec![(2, 5), (3, 4)]],
        order: MessageOrder::Interleaved,
    };
    let err = run_exchange(&prep, &exchange, &Silent)
        .unwrap_err()
        .to_string();
    for part in [
        "'exchange'",
        "source 1",
        "5 and 4 packets",
        "one size per source",
    ] {
        assert!(err.contains(part), "{part} not in: {err}");
    }
    // The same lists in sequential order run.
    let sequential = Exchange {
        order: MessageOrder::Sequential,
        ..exchange
    };
    assert_eq!(
        run_exchange(&prep, &sequential, &Silent)
            .unwrap()
            .delivered_packets,
        12
    );
}

#[test]
fn interleaved_order_refuses_a_source_total_beyond_a_u32() {
    let prep = one_router();
    let exchange = Exchange {
        name: "huge".into(),
        per_source: vec![vec![(1, u32::MAX), (2, u32::MAX)]],
        order: MessageOrder::Interleaved,
    };
    let err = run_exchange(&prep, &exchange, &Silent)
        .unwrap_err()
        .to_string();
    assert!(err.contains("source 0 with 8589934590 packets"), "{err}");
}
