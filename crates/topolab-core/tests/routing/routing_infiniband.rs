//! InfiniBand export (Daryin & Korzh, JSFI 2014, §3): tables written in OpenSM's formats, read
//! back, followed from every switch to every host; the routes must be the scheme's (checked
//! here against the paper's own rules, not the exporter's), fit the VL budget and be
//! deadlock-free over (link, VL).

use topolab_core::build_str;
use topolab_core::progress::Silent;
use topolab_core::routing::catalog::{build_rule, build_static};
use topolab_core::routing::export::forwarding_tables;
use topolab_core::routing::infiniband::opensm::{
    read_tables, write_lfts, write_path_sl, write_sl2vl,
};
use topolab_core::routing::infiniband::{build_tables, check_tables, Fabric, IbTables, PortTarget};
use topolab_core::Network;

fn rule(net: &Network, spec: &str) -> std::sync::Arc<dyn topolab_core::routing::HopRouting> {
    build_rule(net, spec, &Silent).unwrap().unwrap().rule
}

fn round_trip(net: &Network, tb: &IbTables) -> IbTables {
    let (l, s, p) = (
        write_lfts(net, tb).unwrap(),
        write_sl2vl(net, tb).unwrap(),
        write_path_sl(tb),
    );
    read_tables(net, &l, &s, &p).unwrap()
}

/// Follows the LFTs from switch s to `lid`: the switches visited.
fn follow(net: &Network, tb: &IbTables, s: u32, lid: u16) -> Vec<u32> {
    let fab = Fabric::new(net).unwrap();
    let mut route = vec![s];
    let mut r = s;
    loop {
        match fab.target(r, tb.lft[&(r, lid)]) {
            PortTarget::Switch(v) => {
                r = v;
                route.push(v);
            }
            PortTarget::Host(_) => return route,
            other => panic!("LID {lid} leaves switch {r} to {other:?}"),
        }
        assert!(route.len() <= net.num_routers());
    }
}

#[test]
fn mixed_dor_uses_the_papers_sl_and_dimension_orders() {
    let net = build_str("hyperx:dims=3x3x3,p=4").unwrap();
    let r = rule(&net, "hyperx_dor:mixed=true");
    // The switch-level tables of `routing tables` cannot express it.
    let st = build_static(&net, "hyperx_dor:mixed=true", &Silent).unwrap();
    assert!(forwarding_tables(&net, &*st, 8).is_err());
    let tb = build_tables(&net, &*r, 8).unwrap();
    let back = round_trip(&net, &tb);
    assert_eq!(back, tb);
    let check = check_tables(&net, &*r, &back).unwrap();
    assert!(check.cdg.acyclic);
    assert_eq!((check.vls_used, check.sls_used), (4, 4));
    assert_eq!(check.pairs, 27 * 26 * 4);
    // Daryin & Korzh, JSFI 2014, §3.3: SL = d mod 4; orders (1,2,3,4), (2,4,1,3), (3,1,4,2),
    // (4,3,2,1) restricted to the three dimensions that exist.
    let orders = [[0, 1, 2], [1, 0, 2], [2, 0, 1], [2, 1, 0]];
    let fab = Fabric::new(&net).unwrap();
    for s in 0..27u32 {
        for t in 0..27u32 {
            if s == t {
                continue;
            }
            for d in 0..4 {
                let lid = fab.host_lid(t, d);
                assert_eq!(back.path_sl[&(s, lid)], d as u8 % 4);
                let route = follow(&net, &back, s, lid);
                let dims: Vec<usize> = route
                    .windows(2)
                    .map(|w| {
                        (0..3)
                            .find(|&k| net.label(w[0] as usize)[k] != net.label(w[1] as usize)[k])
                            .unwrap()
                    })
                    .collect();
                let want: Vec<usize> = orders[d as usize]
                    .iter()
                    .copied()
                    .filter(|&k| net.label(s as usize)[k] != net.label(t as usize)[k])
                    .collect();
                assert_eq!(dims, want, "s {s} t {t} d {d}");
            }
        }
    }
}

#[test]
fn dragonfly_static_needs_the_sl_dimension() {
    let net = build_str("dragonfly:a=4,h=2").unwrap();
    let st = build_static(&net, "dragonfly_static", &Silent).unwrap();
    let old = forwarding_tables(&net, &*st, 8).unwrap_err().to_string();
    assert!(old.contains("VL"), "{old}");
    let r = rule(&net, "dragonfly_static");
    let tb = round_trip(&net, &build_tables(&net, &*r, 8).unwrap());
    let check = check_tables(&net, &*r, &tb).unwrap();
    assert!(check.cdg.acyclic);
    assert_eq!(check.vls_used, 2);
    assert!(check.max_hops <= 3);
    // At most one global link per route (Daryin & Korzh, JSFI 2014, §3.5 Static: local, global,
    // local).
    let fab = Fabric::new(&net).unwrap();
    let group = |r: u32| net.label(r as usize)[0];
    for s in 0..net.num_routers() as u32 {
        for t in 0..net.num_routers() as u32 {
            if group(s) == group(t) {
                continue;
            }
            let route = follow(&net, &tb, s, fab.host_lid(t, 0));
            let globals = route
                .windows(2)
                .filter(|w| group(w[0]) != group(w[1]))
                .count();
            assert_eq!(globals, 1);
        }
    }
}

#[test]
fn vl_budget_and_non_static_routings_are_refused() {
    let net = build_str("hyperx:dims=3x3,p=4").unwrap();
    let r = rule(&net, "hyperx_dor:mixed=true");
    let e = build_tables(&net, &*r, 2).unwrap_err().to_string();
    assert!(e.contains("vl_budget") && e.contains("at least 4"), "{e}");
    let e = build_tables(&net, &*r, 3).unwrap_err().to_string();
    assert!(e.contains("1, 2, 4, 8 or 15"), "{e}");
    let sf = build_str("slimfly:q=4").unwrap();
    let e = build_tables(&sf, &*rule(&sf, "valiant"), 8)
        .unwrap_err()
        .to_string();
    assert!(e.contains("per packet"), "{e}");
}

#[test]
fn tampered_tables_fail_the_check() {
    let net = build_str("hyperx:dims=4x4,p=2").unwrap();
    let r = rule(&net, "hyperx_dor");
    let tb = build_tables(&net, &*r, 8).unwrap();
    let fab = Fabric::new(&net).unwrap();
    // Send LID of host 0 of switch 15 from switch 0 to a wrong neighbour.
    let lid = fab.host_lid(15, 0);
    let mut bad = tb.clone();
    let p = bad.lft[&(0, lid)];
    bad.lft.insert((0, lid), if p == 1 { 2 } else { 1 });
    let e = check_tables(&net, &*r, &bad).unwrap_err().to_string();
    assert!(e.contains("does not take") || e.contains("loops"), "{e}");
    let mut bad = tb.clone();
    let key = *bad.sl2vl.keys().next().unwrap();
    bad.sl2vl.remove(&key);
    assert!(check_tables(&net, &*r, &bad).is_err());
}

#[test]
fn malformed_files_name_the_line() {
    let net = build_str("hyperx:dims=3x3").unwrap();
    let r = rule(&net, "hyperx_dor");
    let tb = build_tables(&net, &*r, 8).unwrap();
    let lfts = write_lfts(&net, &tb)
        .unwrap()
        .replacen("0x0001 000", "0xzz 000", 1);
    let e = read_tables(&net, &lfts, "", "").unwrap_err().to_string();
    assert!(e.contains("line 2") && e.contains("hexadecimal"), "{e}");
}

/// Every LFT entry is checked, switch LIDs included: each tampered or added entry fails the
/// check, wherever it is, on networks with and without host-less switches.
#[test]
fn every_lft_entry_is_checked_switch_lids_included() {
    for (spec, routing) in [
        ("hyperx:dims=4x4,p=2", "hyperx_dor"),
        ("fattree:k=4,levels=3", "updown"),
    ] {
        let net = build_str(spec).unwrap();
        let r = rule(&net, routing);
        let tb = round_trip(&net, &build_tables(&net, &*r, 8).unwrap());
        check_tables(&net, &*r, &tb).unwrap();
        let fab = Fabric::new(&net).unwrap();
        let ports = |sw: u32| {
            let degree = net.neighbors(sw as usize).len() as u8;
            (0..=degree + net.endpoints()[sw as usize] as u8).collect::<Vec<u8>>()
        };
        // Each entry of the tables, changed to every other port of its switch, fails.
        let mut tampered = 0;
        for (&(sw, lid), &port) in tb.lft.iter().step_by(7) {
            for other in ports(sw).into_iter().filter(|&p| p != port) {
                let mut bad = tb.clone();
                bad.lft.insert((sw, lid), other);
                assert!(
                    check_tables(&net, &*r, &bad).is_err(),
                    "{spec}: switch {sw}, LID {lid}: port {port} -> {other} passes the check"
                );
                tampered += 1;
            }
        }
        assert!(
            tampered > 100,
            "{spec}: only {tampered} tampered entries tried"
        );
        // A switch's own LID is checked at the switch itself and on the way to it.
        let last = net.num_routers() as u32 - 1;
        let own = fab.switch_lid(last);
        let mut bad = tb.clone();
        bad.lft.insert((last, own), 1);
        let e = check_tables(&net, &*r, &bad).unwrap_err().to_string();
        assert!(e.contains("own LID"), "{e}");
        // An entry no route reads (a LID beyond the fabric's) is reported.
        let mut bad = tb.clone();
        bad.lft.insert((0, fab.max_lid() + 1), 1);
        let e = check_tables(&net, &*r, &bad).unwrap_err().to_string();
        assert!(e.contains("no route"), "{e}");
    }
}
