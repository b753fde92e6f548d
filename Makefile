# OpenBench's contract: `make EXE=<path>` builds the engine to that path.
EXE ?= cb2026

.PHONY: all
all:
	cargo build --release -p cb2026
	cp target/release/cb2026 $(EXE)
