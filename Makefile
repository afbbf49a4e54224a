# topolab developer entry point. `make help` lists the targets.
PYTHON ?= python3
PIP_INSTALL = $(PYTHON) -m pip install --quiet --disable-pip-version-check

.PHONY: help install install-test run test test-rust test-python typecheck stubtest lint fmt bench fuzz miri

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

install: ## build the Rust extension (release) and install topolab with its base dependencies
	$(PIP_INSTALL) -e .

install-test: ## install topolab with every optional extra the tests exercise
	$(PIP_INSTALL) -e '.[test]'

run: install ## the main job: which network for 10,000 endpoints and radix-48 routers; report in ./topolab-compare
	$(PYTHON) -m topolab compare -o topolab-compare

test: install-test test-rust test-python typecheck stubtest ## the whole test suite (Rust and Python), mypy and stubtest

test-rust: ## Rust unit and integration tests
	cargo test --workspace --exclude topolab-py

# pytest-xdist: one worker per core, an idle worker taking tests still queued on the other
# (the tests' durations range from milliseconds to minutes)
PYTEST_WORKERS ?= auto
test-python: ## Python API, CLI and networkx cross-checks (PYTEST_WORKERS=0 runs them in one process)
	$(PYTHON) -m pytest -q -n $(PYTEST_WORKERS) --dist worksteal

typecheck: ## mypy over the Python package (configuration in pyproject.toml)
	$(PYTHON) -m mypy -p topolab

stubtest: ## the type stub python/topolab/_core.pyi against the built extension
	$(PYTHON) -m mypy.stubtest topolab._core

lint: ## formatting and lints
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings
	ruff check python tests examples benches scripts
	ruff format --check python tests examples benches scripts

fmt: ## format the Rust and Python code
	cargo fmt --all
	ruff format python tests examples benches scripts

BENCH_ARGS ?=
bench: install-test ## simulator speed and agreement against BookSim2 and CAMINOS (TOPOLAB_BOOKSIM=binary, TOPOLAB_CAMINOS=binary, both optional; BENCH_ARGS='--only sf_q5')
	$(PYTHON) benches/simulator.py $(BENCH_ARGS)

FUZZ_SECONDS ?= 60
fuzz: ## the fuzzing campaign: every fuzz target for FUZZ_SECONDS each (docs/reliability.md)
	fuzz/run.sh $(FUZZ_SECONDS)

miri: ## the simulator's unchecked indexing under Miri (needs: rustup component add --toolchain nightly miri rust-src)
	MIRIFLAGS=-Zmiri-disable-isolation cargo +nightly miri test -p topolab-sim --no-default-features --lib unchecked
