"""The "simulate" experiment kind runs topolab.simulate point by point, with the same numbers."""

import topolab


def test_simulate_kind_matches_direct_simulation(tmp_path):
    experiment = {
        "name": "tiny",
        "kind": "simulate",
        "fixed": {
            "network": "slimfly:q=5,p=4",
            "seed": 3,
            "sample_period": 200,
            "warmup_periods": 1,
            "max_samples": 3,
        },
        "axes": {"load": [0.05, 0.2], "routing": ["min", "valiant"]},
    }
    df = topolab.run_experiment(experiment, results=tmp_path / "store", workers=1, progress=False)
    assert len(df) == 4 and set(df["status"]) == {"ok"}
    row = df[(df["routing"] == "valiant") & (df["load"] == 0.2)].iloc[0]
    direct = topolab.simulate(
        "slimfly:q=5,p=4",
        routing="valiant",
        load=0.2,
        seed=3,
        sample_period=200,
        warmup_periods=1,
        max_samples=3,
    )
    assert row["accepted_throughput"] == direct.accepted_throughput
    assert row["avg_latency"] == direct.avg_latency
    assert row["cycles"] == direct.cycles
