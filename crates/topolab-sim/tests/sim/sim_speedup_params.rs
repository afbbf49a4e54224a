//! BookSim2's crossbar speedups: topolab's iq router models input_speedup = output_speedup = 1
//! only; the value 1 is accepted (BookSim2 parameter sets carry over), any other is refused with
//! an error that names the parameter, both as a simulation parameter and in a BookSim2 file.

use std::path::Path;
use topolab_sim::booksim::parse_config;
use topolab_sim::SimConfig;

#[test]
fn speedups_other_than_one_are_refused_by_name() {
    for key in ["input_speedup", "output_speedup"] {
        let mut c = SimConfig::default();
        c.set(key, "1").unwrap();
        assert_eq!(c, SimConfig::default(), "{key} = 1 changes nothing");
        for bad in ["2", "0", "1.5", "x"] {
            let e = c.set(key, bad).unwrap_err().to_string();
            assert!(e.contains(key) && e.contains(bad), "{key}={bad}: {e}");
        }
        let text = format!(
            "topology = torus;\nk = 4;\nn = 2;\nrouting_function = dim_order;\n{key} = 2;\n"
        );
        let e = parse_config(&text, Path::new("."), "speedup.cfg")
            .expect_err("a BookSim2 file with a speedup of 2 is refused")
            .to_string();
        assert!(e.contains(key) && e.contains('2'), "{e}");
    }
}
