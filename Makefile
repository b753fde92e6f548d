# OpenBench's contract: `make EXE=<path>` builds the engine to that path.
EXE ?= cb2026
CARGO_TARGET_DIR ?= target

.PHONY: all
all:
	cargo build --release -p cb2026
	cp $(CARGO_TARGET_DIR)/release/cb2026 $(EXE)
