"""Experiments: sweeps of points over a grid of parameters, run locally or on a Dask cluster,
with every finished point kept in a Parquet results store so that an interrupted run resumes.
See docs/experiments.md."""

from topolab.experiment.grid import Point, count_points, expand, point_id
from topolab.experiment.kinds import Kind, get_kind, kinds, register_kind
from topolab.experiment.run import TIMING_COLUMNS, load_results, run_experiment
from topolab.experiment.spec import Experiment, load_experiment
from topolab.experiment.store import ResultStore

__all__ = [
    "TIMING_COLUMNS",
    "Experiment",
    "Kind",
    "Point",
    "ResultStore",
    "count_points",
    "expand",
    "get_kind",
    "kinds",
    "load_experiment",
    "load_results",
    "point_id",
    "register_kind",
    "run_experiment",
]
