# One command for each developer loop; README and CI use the same ones.
.PHONY: play test fast bench lock

play:  ## install the app and start it on http://127.0.0.1:8000
	scripts/play.sh $(ARGS)

test:  ## install everything and run every check (ruff check and format, mypy --strict, all tests)
	scripts/test.sh $(ARGS)

fast:  ## the checks without the browser and slow suites
	.venv/bin/ruff check . && .venv/bin/ruff format --check . && .venv/bin/mypy && .venv/bin/python -m pytest -m "not slow and not browser"

bench:  ## engine throughput against OpenSpiel and RLCard
	.venv/bin/python -m pip install --quiet --require-hashes -r requirements-bench.lock
	.venv/bin/python bench/bench_engine.py

lock:  ## re-pin the lock files from pyproject.toml
	.venv/bin/pip-compile --quiet --generate-hashes --allow-unsafe --extra web -o requirements.lock pyproject.toml build-requirements.in
	.venv/bin/pip-compile --quiet --generate-hashes --allow-unsafe --extra web --extra dev --extra cluster -o requirements-dev.lock pyproject.toml build-requirements.in
	.venv/bin/pip-compile --quiet --generate-hashes --allow-unsafe --extra bench -o requirements-bench.lock pyproject.toml
