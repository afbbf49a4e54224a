//! The ibnetdiscover/ibsim topology format (`io::ibnet`): written networks read back equal,
//! parallel cables become a link's width, malformed files are refused with the line named.
//! tests/test_opensm.py runs the real ibsim, OpenSM and ibnetdiscover on these files.

use topolab_core::build_str;
use topolab_core::io::{self, Format, LoadOptions};

fn links(net: &topolab_core::Network) -> Vec<(u32, u32, u32)> {
    let mut v: Vec<_> = net
        .links()
        .iter()
        .map(|l| (l.src.min(l.dst), l.src.max(l.dst), l.width))
        .collect();
    v.sort();
    v.dedup();
    v
}

#[test]
fn written_networks_read_back_equal() {
    for spec in [
        "dragonfly:a=4,h=2",
        "slimfly:q=5",
        "hyperx:dims=3x3,p=2",
        "fattree:k=4",
    ] {
        let net = build_str(spec).unwrap();
        let text = io::to_string(&net, Format::Ibnet).unwrap();
        let back = io::from_str(&text, Format::Ibnet, &LoadOptions::default()).unwrap();
        assert_eq!(back.num_routers(), net.num_routers(), "{spec}");
        assert_eq!(back.endpoints(), net.endpoints(), "{spec}");
        assert_eq!(links(&back), links(&net), "{spec}");
    }
}

#[test]
fn parallel_cables_are_a_links_width_and_adapters_endpoints() {
    // ibsim's own syntax (no GUIDs, remote port defaulting to 1): two cables between the
    // switches, two adapters on Switch1, one on Switch2.
    let text = "Switch 8 \"Switch1\"\n[1] \"Hca1\"[1]\n[2] \"Hca2\"\n[3] \"Switch2\"[3]\n[5] \"Switch2\"[5]\n\n\
                Switch 8 \"Switch2\"\n[1] \"Hca3\"[1]\n[3] \"Switch1\"[3]\n[5] \"Switch1\"[5]\n\n\
                Hca 2 \"Hca1\"\n[1] \"Switch1\"[1]\n\nHca 2 \"Hca2\"\n[1] \"Switch1\"[2]\n\n\
                Ca 1 \"Hca3\"\n[1] \"Switch2\"[1]\n";
    let net = io::from_str(text, Format::Ibnet, &LoadOptions::default()).unwrap();
    assert_eq!(net.num_routers(), 2);
    assert_eq!(net.endpoints(), &[2, 1]);
    assert_eq!(links(&net), vec![(0, 1, 2)]);
}

#[test]
fn malformed_files_name_the_line() {
    let cases = [
        (
            "Switch 4 \"A\"\n[1] \"B\"[1]\n",
            "line 2",
            "does not define",
        ),
        ("Switch 4 \"A\"\n[x] \"A\"[1]\n", "line 2", "not a number"),
        (
            "Switch 4 \"A\"\n\nSwitch 4 \"A\"\n",
            "line 3",
            "defined twice",
        ),
        ("Rt 2 \"R\"\n", "line 1", "router"),
        ("Hca 1 \"H\"\n", "", "no Switch"),
    ];
    for (text, at, why) in cases {
        let e = io::from_str(text, Format::Ibnet, &LoadOptions::default())
            .unwrap_err()
            .to_string();
        assert!(e.contains(at) && e.contains(why), "{text:?}: {e}");
    }
}
