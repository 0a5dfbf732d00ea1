# Makefile for the DTSS project. `make help` lists the targets.

# ---- settings -------------------------------------------------------------
CC      ?= cc
CSTD    := -std=c11 -D_POSIX_C_SOURCE=200809L
WARN    := -Wall -Wextra -Wshadow -Wpointer-arith -Wstrict-prototypes \
           -Wmissing-prototypes -Wformat=2 -Wvla \
           -Werror=incompatible-pointer-types -Werror=implicit-function-declaration \
           -Werror=int-conversion
OPT     := -O2 -g
LIBS    := -lgsl -lgslcblas -lm

ifeq ($(SAN),1)
  # float-cast-overflow (a double out of an integer's range, cast): not
  # part of 'undefined' in either compiler. With clang, apart from gcc's:
  # make all-tests SAN=1 CC=clang BUILD=build/san-clang BIN=build/san-clang/bin
  OPT    := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
            -fsanitize=float-cast-overflow -fno-sanitize-recover=all
  BUILD  := build/san
  BIN    := build/san/bin
else
  BUILD  := build/obj
  BIN    := bin
endif

CFLAGS  := $(CSTD) $(WARN) $(OPT) -I. $(EXTRA_CFLAGS)
LDFLAGS := $(OPT) $(EXTRA_LDFLAGS)

# ---- sources ----------------------------------------------------------------
# sched/ in folders by concern (schemes/ loop/ pool/ lb/ strips/ records/ util/).
SCHED_SRC   := $(filter-out sched/schemes/chunks.c,$(wildcard sched/*.c sched/*/*.c))
# runtime/transport/mpi.c: libdtss-mpi's transport in place of pvm.c (mpi section)
RUNTIME_SRC := $(filter-out runtime/transport/mpi.c,$(wildcard runtime/*/*.c))
MANDEL_SRC  := $(filter-out mandel/main.c,$(wildcard mandel/*.c))
SIM_SRC     := $(filter-out sim/main.c,$(wildcard sim/*.c))
DAG_MAINS   := dag/dagsched.c dag/daggen.c dag/dagexp.c
DAG_SRC     := $(filter-out $(DAG_MAINS),$(wildcard dag/*.c))
MATRIX_SRC  := $(filter-out matrix/main.c,$(wildcard matrix/*.c))
# The workloads' costs (cost/cost.h): the Mandelbrot kernel and the matrix
# sizes, shared by mandel/, matrix/ and the simulator; an archive of its
# own, out of libsched.a (so out of the installed libdtss.a).
COST_SRC    := $(wildcard cost/*.c)
# The simulator's engine, for --scheme auto in libdtss (sim/select.h).
SIM_CORE_SRC := sim/engine.c sim/self.c sim/tree.c sim/platform.c sim/work.c sim/select.c

SCHED_LIB  := $(BUILD)/libsched.a
DTSS_LIB   := $(BUILD)/libdtss.a
MANDEL_LIB := $(BUILD)/libmandel.a
SIM_LIB    := $(BUILD)/libsim.a
DAG_LIB    := $(BUILD)/libdag.a
MATRIX_LIB := $(BUILD)/libmatrix.a
COST_LIB   := $(BUILD)/libcost.a

PROGRAMS   := $(BIN)/chunks $(BIN)/mandel $(BIN)/worker $(BIN)/coordinator $(BIN)/integral $(BIN)/loop \
              $(BIN)/tabulate $(BIN)/record $(BIN)/sim $(BIN)/stats \
              $(BIN)/dagsched $(BIN)/daggen $(BIN)/dagexp $(BIN)/matrix
TESTS      := $(BIN)/test_sched $(BIN)/test_policy $(BIN)/test_mandel $(BIN)/test_sim \
              $(BIN)/test_dag $(BIN)/test_record $(BIN)/test_runtime \
              $(BIN)/test_matrix
# The test programs' scripts, run by make test after $(TESTS), in this order
# (the emulated cluster's last: they take longest).
TEST_SCRIPTS := tests/layout.sh tests/cli.sh tests/record.sh tests/sim.sh tests/longrun.sh tests/league.sh tests/figures.sh \
              tests/golden.sh \
              tests/dag.sh tests/pvm.sh tests/loop.sh tests/faults.sh tests/resume.sh tests/outputs.sh tests/conventions.sh \
              tests/matrix.sh tests/install.sh tests/mpi.sh tests/security.sh tests/cluster.sh \
              tests/coordinator_cluster.sh tests/mpi_cluster.sh tests/slurm.sh tests/slurm_pool.sh tests/real.sh tests/xu_extra_cluster.sh tests/reproduce.sh tests/fuzz.sh \
              tests/fuzz_argv.sh
BENCHES    := $(BIN)/bench_mandel $(BIN)/bench_sched $(BIN)/bench_omp $(BIN)/pingpong $(BIN)/pvm_ready \
              $(BIN)/bench_runtime \
              $(BIN)/bench_dag $(BIN)/bench_matrix

obj = $(patsubst %.c,$(BUILD)/%.o,$(1))

# ---- thin (begin)
# Guo & Hall thinning and its master-worker parts (docs/thin.md): bin/thin,
# bin/thin-images (the test images; scripts/heymann-images), libthin.a.
THIN_MAINS := thin/main.c thin/images.c thin/pvm.c
THIN_SRC   := $(filter-out $(THIN_MAINS),$(wildcard thin/*.c))
THIN_LIB   := $(BUILD)/libthin.a
PROGRAMS   += $(BIN)/thin $(BIN)/thin-images $(BIN)/thin-pool
TESTS      += $(BIN)/test_thin
TEST_SCRIPTS += tests/thin.sh tests/pool_pvm.sh tests/pool_resume.sh tests/pool_cluster.sh
# The rules below come before 'all': keep 'all' the default goal.
.DEFAULT_GOAL := all

$(THIN_LIB): $(call obj,$(THIN_SRC))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(BIN)/thin: $(call obj,thin/main.c) $(THIN_LIB) $(SCHED_LIB)
$(BIN)/thin-images: $(call obj,thin/images.c) $(THIN_LIB) $(SCHED_LIB)
# bin/thin-pool: the thinning on the PVM pool (libdtss)
$(BIN)/thin-pool: $(call obj,thin/pvm.c) $(THIN_LIB) $(DTSS_LIB)
$(BIN)/thin-pool: LIBS += -lpvm3
$(BIN)/test_thin: $(call obj,tests/test_thin.c) $(THIN_LIB) $(SCHED_LIB)
# ---- thin (end)

# ---- pool (begin)
# Heymann et al.'s self-adjusting worker pool (docs/pool.md): the strategies
# are in sched/pool/ (libsched.a), the trace replay in sim/ (libsim.a);
# sim/pooltrace.c is bin/pooltrace's main, kept out of libsim.a.
SIM_SRC      := $(filter-out sim/pooltrace.c,$(SIM_SRC))
PROGRAMS     += $(BIN)/pooltrace
TESTS        += $(BIN)/test_pool
TEST_SCRIPTS += tests/pool.sh
# The rules below come before 'all': keep 'all' the default goal.
.DEFAULT_GOAL := all

$(BIN)/pooltrace: $(call obj,sim/pooltrace.c) $(SIM_LIB) $(SCHED_LIB)
$(BIN)/test_pool: $(call obj,tests/test_pool.c) $(SIM_LIB) $(SCHED_LIB)
# ---- pool (end)

# ---- lb (begin)
# Yoon et al.'s load balancing by predicted execution time (sched/lb/lb.h):
# the strategies are in sched/lb/ (libsched.a); sched/lb/yoonplan.c is
# bin/yoon-plan's main, kept out of libsched.a.
SCHED_SRC    := $(filter-out sched/lb/yoonplan.c,$(SCHED_SRC))
PROGRAMS     += $(BIN)/yoon-plan
TESTS        += $(BIN)/test_lb
TEST_SCRIPTS += tests/lb.sh
# The rules below come before 'all': keep 'all' the default goal.
.DEFAULT_GOAL := all

$(BIN)/yoon-plan: $(call obj,sched/lb/yoonplan.c) $(SCHED_LIB)
$(BIN)/test_lb: $(call obj,tests/test_lb.c) $(SCHED_LIB)
# ---- lb (end)

# ---- heat (begin)
# The heat-conduction application's PVM-free part (docs/heat.md): the FTCS
# kernel and P strips in one process (libheat.a), bin/heat (the sequential
# reference; strips re-cut at random). The strip decisions are
# sched/strips/strips.c (libsched.a, shared with the runtime), tested by
# bin/test_strips. heat/
# and its test are compiled with -ffp-contract=off: no fused multiply-add
# anywhere, whatever the compiler or -march (heat/heat.h, "Bit for bit").
HEAT_MAINS := heat/main.c heat/pvm.c
HEAT_SRC   := $(filter-out $(HEAT_MAINS),$(wildcard heat/*.c))
HEAT_LIB   := $(BUILD)/libheat.a
PROGRAMS   += $(BIN)/heat
TESTS      += $(BIN)/test_heat $(BIN)/test_strips
TEST_SCRIPTS += tests/heat.sh
# The rules below come before 'all': keep 'all' the default goal.
.DEFAULT_GOAL := all

$(call obj,$(HEAT_SRC) $(HEAT_MAINS) tests/test_heat.c): CFLAGS += -ffp-contract=off
$(HEAT_LIB): $(call obj,$(HEAT_SRC))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(BIN)/heat: $(call obj,heat/main.c) $(HEAT_LIB) $(SCHED_LIB)
$(BIN)/test_heat: $(call obj,tests/test_heat.c) $(HEAT_LIB) $(SCHED_LIB)
$(BIN)/test_strips: $(call obj,tests/test_strips.c) $(SCHED_LIB)
# ---- heat (end)

# ---- readings (begin)
# Xu & Chronopoulos's claims under every reading of the paper, on the
# simulator (issue 25): sim/readings.c is bin/readings's main, kept out of
# libsim.a; the claims are sched/records/claims.c (libsched.a, bin/tabulate's
# too).
SIM_SRC      := $(filter-out sim/readings.c,$(SIM_SRC))
PROGRAMS     += $(BIN)/readings
TEST_SCRIPTS += tests/readings.sh
# The rules below come before 'all': keep 'all' the default goal.
.DEFAULT_GOAL := all

$(BIN)/readings: $(call obj,sim/readings.c) $(SIM_LIB) $(COST_LIB) $(SCHED_LIB)
# ---- readings (end)

# ---- yoonsim (begin)
# Yoon et al.'s simulation study, Sec. 4.1 (docs/yoon.md): the engine is
# sim/lb.c (libsim.a); sim/yoonsim.c is bin/yoon-sim's main, kept out of
# libsim.a; scripts/yoon-figs draws Figures 4-7 from it.
SIM_SRC      := $(filter-out sim/yoonsim.c,$(SIM_SRC))
PROGRAMS     += $(BIN)/yoon-sim
TESTS        += $(BIN)/test_yoonsim
TEST_SCRIPTS += tests/yoonsim.sh
# The rules below come before 'all': keep 'all' the default goal.
.DEFAULT_GOAL := all

$(BIN)/yoon-sim: $(call obj,sim/yoonsim.c) $(SIM_LIB) $(SCHED_LIB)
$(BIN)/test_yoonsim: $(call obj,tests/test_yoonsim.c) $(SIM_LIB) $(SCHED_LIB)
# ---- yoonsim (end)

# ---- adaptive (begin)
# The adaptive schemes (sched/schemes/wf.c, awf.c, af.c, in libsched.a) and
# the driver's sched_next_w / sched_done, tested by bin/test_adaptive.
TESTS        += $(BIN)/test_adaptive
$(BIN)/test_adaptive: $(call obj,tests/test_adaptive.c) $(SCHED_LIB)
# ---- adaptive (end)

# ---- netpipe (begin)
# bin/netpipe: NetPIPE's ping-pong over PVM (Yoon et al. Figs. 8-9); its main
# is a PVM program of its own (not libdtss: it measures PVM itself).
PROGRAMS     += $(BIN)/netpipe
TEST_SCRIPTS += tests/link.sh
$(BIN)/netpipe: $(call obj,scripts/netpipe.c) $(SCHED_LIB)
$(BIN)/netpipe: LIBS += -lpvm3
# bin/yoon-tasks: Yoon et al.'s task model on the migration runtime
# (runtime/lb/master.c, lb_worker.c); it includes <dtss.h> as a user's would.
PROGRAMS     += $(BIN)/yoon-tasks
TEST_SCRIPTS += tests/lb_pvm.sh
$(BIN)/yoon-tasks: $(call obj,examples/tasks.c) $(DTSS_LIB)
$(BIN)/yoon-tasks: LIBS += -lpvm3
$(BUILD)/examples/tasks.o: CFLAGS += -Iruntime
# bin/heat-pvm: the heat-conduction model on the row-strip runtime
# (runtime/strips/master.c, strips_worker.c); <dtss.h> as a user's.
PROGRAMS     += $(BIN)/heat-pvm
TEST_SCRIPTS += tests/strips_pvm.sh
$(BIN)/heat-pvm: $(call obj,heat/pvm.c) $(HEAT_LIB) $(DTSS_LIB)
$(BIN)/heat-pvm: LIBS += -lpvm3
$(BUILD)/heat/pvm.o: CFLAGS += -Iruntime
# ---- netpipe (end)

# ---- jacobi (begin)
# bin/jacobi: a user's own iterative program on the self-adjusting pool
# (examples/jacobi.c, docs/pool.md); it includes <dtss.h> as a user's would.
PROGRAMS     += $(BIN)/jacobi
TEST_SCRIPTS += tests/jacobi_pvm.sh
$(BIN)/jacobi: $(call obj,examples/jacobi.c) $(DTSS_LIB)
$(BIN)/jacobi: LIBS += -lpvm3
$(BUILD)/examples/jacobi.o: CFLAGS += -Iruntime
# ---- jacobi (end)

# ---- targets ----------------------------------------------------------------
.PHONY: all deps test-deps test bench bench-compare clean help echo reproduce-tables reproduce-diaz reproduce-dag reproduce-readings \
        reproduce-heymann reproduce-yoon reproduce-xu-extra reproduce-mpi reproduce-slurm league calibrate run \
        install uninstall

all: $(PROGRAMS)

deps:
	@scripts/deps

# The tests also need clang (libFuzzer, sanitizers) and openssh-server (the
# real-machine test); `make test` installs them, `make reproduce-tables` not.
test-deps:
	@scripts/deps --test

test: test-deps
	@$(MAKE) --no-print-directory all-tests
	@BIN=$(BIN) STRICT=$(STRICT) LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp \
	    scripts/run-tests $(TESTS) $(TEST_SCRIPTS)

.PHONY: all-tests
all-tests: $(PROGRAMS) $(TESTS) $(BIN)/fuzz_argv $(BIN)/tree_early $(BIN)/toy_model \
           $(BIN)/pvm_ready

bench: deps
	@$(MAKE) --no-print-directory $(BENCHES) $(MPI_BENCHES) $(BIN)/mpi/coordinator \
	    $(BIN)/mpi/worker $(BIN)/mpi/loop $(BIN)/mandel $(BIN)/record $(BIN)/loop
	@$(BIN)/bench_mandel && $(BIN)/bench_sched && $(BIN)/bench_dag && $(BIN)/bench_matrix && BIN=$(BIN) tests/bench_sim.sh && BIN=$(BIN) tests/bench_league.sh && \
	    BIN=$(BIN) tests/bench_pvm.sh && BIN=$(BIN) tests/bench_strips_journal.sh && BIN=$(BIN) tests/bench_cluster.sh && BIN=$(BIN) tests/bench_ahead.sh && \
	    BIN=$(BIN) tests/bench_auto.sh && BIN=$(BIN) tests/bench_mpi.sh && BIN=$(BIN) tests/bench_calibrate.sh

# OLD=REV: that revision built aside and measured beside this one, in one run
# (per chunk on PVM, a DTSS run, the simulator, the kernel: tests/bench_seam.sh).
bench-compare: deps
	@$(MAKE) --no-print-directory $(BENCHES) $(BIN)/coordinator $(BIN)/record $(BIN)/sim
	@BIN=$(BIN) tests/bench_seam.sh "$$BENCH_OLD"
bench-compare: export BENCH_OLD = $(OLD)

# The values users give on make's command line (REPS, GRAPHS, SCHEME, LOAD,
# AFTER, HOSTFILE, ARGS, CLUSTER_MODE, PREFIX) reach the scripts through the
# environment and are quoted where the recipes use them: they are data, never
# shell text.

# QUICK=1: a small version (about a minute); REPS=N runs per scenario.
reproduce-tables: export MAKE_REPS = $(REPS)
reproduce-tables: deps
	@$(MAKE) --no-print-directory all
	@BIN=$(abspath $(BIN)) scripts/reproduce $(if $(filter 1,$(QUICK)),--quick) \
	    $${MAKE_REPS:+--reps "$$MAKE_REPS"}

# Díaz et al. on the simulator, and Xu's tables simulated (also the second
# part of reproduce-tables). QUICK=1: a small version.
reproduce-diaz: deps
	@$(MAKE) --no-print-directory all
	@BIN=$(abspath $(BIN)) scripts/reproduce-diaz $(if $(filter 1,$(QUICK)),--quick)

# Xu & Chronopoulos's claims under every reading of the paper, simulated ->
# results/readings.md, readings.png, w4-load.md (docs/readings.md).
reproduce-readings: deps
	@$(MAKE) --no-print-directory all
	@BIN=$(abspath $(BIN)) scripts/reproduce-readings $(if $(filter 1,$(QUICK)),--quick)

# Singh et al. Figures 5-7 (random, FFT and Gaussian-elimination graphs; the
# x-axis read as tasks and as processors) and the CCR / shape sweep ->
# results/dag/ (docs/dag.md). QUICK=1: a few graphs per point; GRAPHS=N
# graphs per point.
reproduce-dag: export MAKE_GRAPHS = $(GRAPHS)
reproduce-dag: deps
	@$(MAKE) --no-print-directory all
	@BIN=$(abspath $(BIN)) scripts/reproduce-dag $(if $(filter 1,$(QUICK)),--quick) \
	    $${MAKE_GRAPHS:+--graphs "$$MAKE_GRAPHS"}

# Heymann et al. Table 4.1 and Figure 4.2: the thinning on the self-adjusting
# pool, emulated cluster + simulator -> results/heymann/ (docs/pool.md; also
# a part of reproduce-tables). QUICK=1: a small version; RUNS=N runs per case.
reproduce-heymann: export MAKE_RUNS = $(RUNS)
reproduce-heymann: export MAKE_ALLOCATOR = $(ALLOCATOR)
reproduce-heymann: deps
	@$(MAKE) --no-print-directory all
	@BIN=$(abspath $(BIN)) scripts/reproduce-heymann $(if $(filter 1,$(QUICK)),--quick) \
	    $${MAKE_RUNS:+--runs "$$MAKE_RUNS"} \
	    $${MAKE_ALLOCATOR:+--allocator "$$MAKE_ALLOCATOR"}

# Yoon et al.: Figures 4-7 simulated, 8-9 measured over PVM on a 10 Mbit/s
# emulated link, the task model and the heat conduction on PVM ->
# results/yoon/ (docs/yoon.md; also a part of reproduce-tables). QUICK=1: a
# small version; RUNS=N runs per case.
reproduce-yoon: export MAKE_RUNS = $(RUNS)
reproduce-yoon: deps
	@$(MAKE) --no-print-directory all
	@BIN=$(abspath $(BIN)) scripts/reproduce-yoon $(if $(filter 1,$(QUICK)),--quick) \
	    $${MAKE_RUNS:+--runs "$$MAKE_RUNS"}

# Xu Fig. 2 (the sampled linear loops) and Sec. 3.1's example (w1 at speed
# 1, three at 9: TSS on four slower than on three), emulated + simulated ->
# results/fig2.png, results/sec31.md. QUICK=1: a small version into
# results/quick/; REPS=N runs per case.
reproduce-xu-extra: export MAKE_REPS = $(REPS)
reproduce-xu-extra: deps
	@$(MAKE) --no-print-directory all
	@BIN=$(abspath $(BIN)) scripts/reproduce-xu-extra $(if $(filter 1,$(QUICK)),--quick) \
	    $${MAKE_REPS:+--reps "$$MAKE_REPS"}

# Xu's runs (TSS, DTSS, Tree; dedicated and loaded) on the emulated Table 1
# and Table 2 clusters and on 10 Mbit/s links, MPI beside PVM ->
# results/mpi/ (docs/mpi.md). QUICK=1: a small version; REPS=N runs a case.
reproduce-mpi: export MAKE_REPS = $(REPS)
reproduce-mpi: deps
	@$(MAKE) --no-print-directory all
	@BIN=$(abspath $(BIN)) scripts/reproduce-mpi $(if $(filter 1,$(QUICK)),--quick) \
	    $${MAKE_REPS:+--reps "$$MAKE_REPS"}

# DTSS through a batch system: sbatch to the workers (10 jobs), and Heymann's
# Table 4.1 with the pool's workers from Slurm -> results/slurm/,
# results/heymann-slurm/ (docs/slurm.md). QUICK=1: a small version.
reproduce-slurm: deps
	@$(MAKE) --no-print-directory all
	@BIN=$(abspath $(BIN)) scripts/reproduce-slurm $(if $(filter 1,$(QUICK)),--quick)

# The league: every scheme x scenario x link, simulated and emulated, against
# the ideal -> results/league.md, league.png, league/ (also a part of
# reproduce-tables). QUICK=1: a small version; SIM=1: the simulator only.
league: deps
	@$(MAKE) --no-print-directory all
	@BIN=$(abspath $(BIN)) QUICK=$(QUICK) scripts/league $(if $(filter 1,$(SIM)),--sim-only)

# What a chunk's messages cost an emulated host on this machine, fitted on
# runs of its own -> build/calibration/ (the league reads it; a full league
# makes it when it is not there): scripts/calibrate --help.
calibrate: deps
	@$(MAKE) --no-print-directory all
	@BIN=$(abspath $(BIN)) scripts/calibrate

# One run on the cluster with a chosen load: make run SCHEME=tss LOAD="w1:3 w2:2"
# (HOSTFILE= given: that cluster, refusing another that is up; ARGS: words for
# the coordinator, split at blanks; TRANSPORT=mpi: under mpirun, bin/mpi/).
run: export MAKE_SCHEME = $(or $(SCHEME),dtss)
run: export MAKE_LOAD = $(LOAD)
run: export MAKE_AFTER = $(AFTER)
run: export MAKE_HOSTFILE = $(if $(filter-out file,$(origin HOSTFILE)),$(HOSTFILE))
run: export MAKE_ARGS = $(ARGS)
run: export MAKE_TRANSPORT = $(or $(TRANSPORT),pvm)
run: deps
	@$(MAKE) --no-print-directory all
	@set -f; BIN=$(abspath $(BIN)) scripts/run-one --scheme "$$MAKE_SCHEME" \
	    --load "$$MAKE_LOAD" $${MAKE_AFTER:+--after "$$MAKE_AFTER"} \
	    --transport "$$MAKE_TRANSPORT" \
	    $${MAKE_HOSTFILE:+--hostfile "$$MAKE_HOSTFILE"} -- $$MAKE_ARGS

# libdtss for users' programs: dtss.h, libdtss.a and libdtss-mpi.a, dtss.pc
# and dtss-mpi.pc (pkg-config) and
# the man page dtss(3) under PREFIX; uninstall removes exactly those (and the
# folders install created). PREFIX reaches the script through the
# environment, as data.
PREFIX ?= /usr/local
install: $(DTSS_LIB) $(DTSS_MPI_LIB)
	@DTSS_PREFIX="$$DTSS_INSTALL_PREFIX" DTSS_LIB=$(DTSS_LIB) DTSS_MPI_LIB=$(DTSS_MPI_LIB) \
	    scripts/install install
uninstall:
	@DTSS_PREFIX="$$DTSS_INSTALL_PREFIX" scripts/install uninstall
install uninstall: export DTSS_INSTALL_PREFIX = $(PREFIX)

clean:
	rm -rf build bin

echo:
	@echo "CC      = $(CC)"
	@echo "CFLAGS  = $(CFLAGS)"
	@echo "LDFLAGS = $(LDFLAGS)"
	@echo "LIBS    = $(LIBS)"
	@echo "BUILD   = $(BUILD)   BIN = $(BIN)"

help:
	@echo "make                  build every program into bin/"
	@echo "make deps             install missing Debian packages (apt-get)"
	@echo "make test [SAN=1] [STRICT=1]  install, build and run every test (SAN=1: ASan+UBSan;"
	@echo "                      STRICT=1: a skipped check fails)"
	@echo "make fuzz             fuzz every parser for FUZZ_SECONDS each (clang, libFuzzer)"
	@echo "make bench            benchmarks (kernel, chunk cost, DAG, simulator, PVM, cluster)"
	@echo "make reproduce-tables the papers' tables and plots into results/ [QUICK=1] [REPS=N]"
	@echo "make reproduce-diaz   Díaz et al. on the simulator into results/diaz/ [QUICK=1]"
	@echo "make reproduce-readings  Xu's claims under every reading of the paper, simulated [QUICK=1]"
	@echo "make reproduce-dag    Singh et al. (HEFT, CPOP, DCPOP) into results/dag/ [QUICK=1]"
	@echo "make reproduce-heymann Heymann et al. Table 4.1, Figure 4.2 into results/heymann/ [QUICK=1] [RUNS=N] [ALLOCATOR=slurm]"
	@echo "make league           every scheme x scenario x link against the ideal into results/league.md [QUICK=1] [SIM=1]"
	@echo "make calibrate        what messages cost an emulated host here, for the simulator (build/calibration)"
	@echo "make reproduce-yoon   Yoon et al. Figures 4-9, task model and heat on PVM into results/yoon/ [QUICK=1] [RUNS=N]"
	@echo "make reproduce-slurm  sbatch to the workers, Heymann's Table 4.1 with workers from Slurm into results/slurm/ [QUICK=1]"
	@echo "make reproduce-mpi    Xu's runs on MPI beside PVM (Tables 1, 2, 10 Mbit/s) into results/mpi/ [QUICK=1] [REPS=N]"
	@echo "make reproduce-xu-extra Xu Fig. 2 and Sec. 3.1's example into results/fig2.png, sec31.md [QUICK=1] [REPS=N]"
	@echo "make run SCHEME=tss LOAD=\"w1:3 w2:2\" [AFTER=s|P%] [ARGS=\"-S 600\"]  one run on the cluster, with load"
	@echo "make cluster-up [HOSTFILE=f] / cluster-status / cluster-down  the emulated cluster"
	@echo "make bench-compare OLD=REV  an older revision measured beside this build"
	@echo "make install [PREFIX=/usr/local]  libdtss: dtss.h, libdtss.a, libdtss-mpi.a, dtss.pc, dtss-mpi.pc, dtss(3)"
	@echo "make uninstall [PREFIX=...]       remove exactly what install put there"
	@echo "make clean            remove build/ and bin/"
	@echo "make echo             print the compiler settings"

# ---- rules ------------------------------------------------------------------
# Written anew with 'q', as libdtss: a member per file even if two folders
# ever hold files of one name ('r' would keep one of them).
$(SCHED_LIB): $(call obj,$(SCHED_SRC))
	@mkdir -p $(dir $@)
	@rm -f $@
	$(AR) qcs $@ $^

# libdtss: the runtime and the scheduling library it drives, one archive,
# with the simulator's engine that --scheme auto runs (sim/select.h; not its
# readers: no GSL random numbers, no cost models).
# Its models have files of the same name (loop/master.c, pool/master.c):
# the archive is written anew with 'q', which keeps members of one name.
$(DTSS_LIB): $(call obj,$(RUNTIME_SRC) $(SCHED_SRC) $(SIM_CORE_SRC))
	@mkdir -p $(dir $@)
	@rm -f $@
	$(AR) qcs $@ $^

$(MANDEL_LIB): $(call obj,$(MANDEL_SRC))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(SIM_LIB): $(call obj,$(SIM_SRC))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(DAG_LIB): $(call obj,$(DAG_SRC))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(MATRIX_LIB): $(call obj,$(MATRIX_SRC))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(COST_LIB): $(call obj,$(COST_SRC))
	@mkdir -p $(dir $@)
	$(AR) rcs $@ $^

$(BIN)/chunks: $(call obj,sched/schemes/chunks.c) $(SCHED_LIB)
$(BIN)/mandel: $(call obj,mandel/main.c) $(MANDEL_LIB) $(COST_LIB) $(SCHED_LIB)
$(BIN)/worker: $(call obj,worker/main.c) $(MANDEL_LIB) $(COST_LIB) $(DTSS_LIB)
$(BIN)/coordinator: $(call obj,coordinator/main.c) $(MANDEL_LIB) $(COST_LIB) $(DTSS_LIB)
$(BIN)/tabulate: $(call obj,scripts/tabulate.c) $(SCHED_LIB)
$(BIN)/record: $(call obj,scripts/record.c) $(SCHED_LIB)
$(BIN)/sim: $(call obj,sim/main.c) $(SIM_LIB) $(COST_LIB) $(SCHED_LIB)
$(BIN)/stats: $(call obj,scripts/stats.c) $(SCHED_LIB)
$(BIN)/dagsched: $(call obj,dag/dagsched.c) $(DAG_LIB) $(SCHED_LIB)
$(BIN)/daggen: $(call obj,dag/daggen.c) $(DAG_LIB) $(SCHED_LIB)
$(BIN)/dagexp: $(call obj,dag/dagexp.c) $(DAG_LIB) $(SCHED_LIB)
$(BIN)/test_dag: $(call obj,tests/test_dag.c) $(DAG_LIB) $(SCHED_LIB)
$(BIN)/bench_dag: $(call obj,tests/bench_dag.c) $(DAG_LIB) $(SCHED_LIB)
$(BIN)/test_sched: $(call obj,tests/test_sched.c) $(SCHED_LIB)
# Every program's options fuzzed (tests/fuzz_argv.sh; make fuzz: longer).
$(BIN)/fuzz_argv: $(call obj,tests/fuzz_argv.c) $(SCHED_LIB)
$(BIN)/test_policy: $(call obj,tests/test_policy.c) $(SCHED_LIB)
$(BIN)/test_record: $(call obj,tests/test_record.c) $(SCHED_LIB)
$(BIN)/test_runtime: $(call obj,tests/test_runtime.c) $(DTSS_LIB)
$(BIN)/test_runtime: LIBS += -lpvm3
$(BIN)/test_mandel: $(call obj,tests/test_mandel.c) $(MANDEL_LIB) $(COST_LIB) $(SCHED_LIB)
$(BIN)/test_sim: $(call obj,tests/test_sim.c) $(SIM_LIB) $(COST_LIB) $(SCHED_LIB)
$(BIN)/bench_mandel: $(call obj,tests/bench_mandel.c) $(MANDEL_LIB) $(COST_LIB) $(SCHED_LIB)
$(BIN)/bench_sched: $(call obj,tests/bench_sched.c) $(SCHED_LIB)
$(BIN)/bench_omp: $(call obj,tests/bench_omp.c) $(MANDEL_LIB) $(COST_LIB) $(SCHED_LIB)
$(BIN)/bench_omp: LDFLAGS += -fopenmp
$(BUILD)/tests/bench_omp.o: CFLAGS += -fopenmp
$(BIN)/pingpong: $(call obj,tests/pingpong.c) $(DTSS_LIB)
# Does a private pvmd take a task (tests/pvmlib.sh's pvm_up)?
$(BIN)/pvm_ready: $(call obj,tests/pvm_ready.c) $(DTSS_LIB)
# A Tree worker asked for work before its job came (tests/pvm.sh runs it).
$(BIN)/tree_early: $(call obj,tests/tree_early.c) $(MANDEL_LIB) $(COST_LIB) $(DTSS_LIB)
$(BIN)/bench_runtime: $(call obj,tests/bench_runtime.c) $(DTSS_LIB)
# A fifth model written by docs/runtime.md's "Adding a model" (tests/pvm.sh).
$(BIN)/toy_model: $(call obj,tests/toy_model.c) $(DTSS_LIB)
$(BIN)/worker $(BIN)/coordinator $(BIN)/pingpong $(BIN)/pvm_ready $(BIN)/bench_runtime $(BIN)/tree_early \
$(BIN)/toy_model: LIBS += -lpvm3
# bin/matrix: OpenBLAS's CBLAS instead of GSL's (tests/bench_matrix.c: ~8x).
$(BIN)/matrix: $(call obj,matrix/main.c) $(MATRIX_LIB) $(COST_LIB) $(DTSS_LIB)
$(BIN)/matrix: LIBS := $(subst -lgslcblas,-lopenblas,$(LIBS)) -lpvm3
$(BIN)/test_matrix: $(call obj,tests/test_matrix.c) $(MATRIX_LIB) $(COST_LIB) $(SCHED_LIB)
$(BIN)/bench_matrix: $(call obj,tests/bench_matrix.c) $(MATRIX_LIB) $(COST_LIB) $(SCHED_LIB)
# The example includes <dtss.h> as a user's program does.
$(BIN)/integral: $(call obj,examples/integral.c) $(DTSS_LIB)
$(BIN)/integral: LIBS += -lpvm3
$(BUILD)/examples/integral.o: CFLAGS += -Iruntime
# bin/loop: Xu Fig. 1's synthetic loops on PVM, costed by the simulator's
# workload (sim/workload.c: one implementation of the costs).
$(BIN)/loop: $(call obj,examples/loop.c) $(SIM_LIB) $(COST_LIB) $(DTSS_LIB)
$(BIN)/loop: LIBS += -lpvm3

$(BIN)/%:
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(LIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -MMD -MP -c -o $@ $<

-include $(wildcard $(BUILD)/*/*.d $(BUILD)/*/*/*.d $(BUILD)/*/*/*/*.d)

# ---- mpi (begin)
# libdtss-mpi: the same runtime on the MPI transport (runtime/transport/mpi.c
# in place of pvm.c; Debian's Open MPI 4.1; docs/mpi.md), and the programs
# that use libdtss built on it into $(BIN)/mpi/: the same sources, linked
# against the other library.
MPI_CFLAGS  := $(shell pkg-config --cflags ompi-c 2>/dev/null)
MPI_LIBS    := $(shell pkg-config --libs ompi-c 2>/dev/null)
DTSS_MPI_LIB := $(BUILD)/libdtss-mpi.a
DTSS_MPI_OBJ := $(call obj,$(filter-out runtime/transport/pvm.c,$(RUNTIME_SRC)) \
                runtime/transport/mpi.c $(SCHED_SRC) $(SIM_CORE_SRC))
MPI_PROGRAMS := $(addprefix $(BIN)/mpi/,integral loop coordinator worker matrix thin-pool \
                yoon-tasks heat-pvm jacobi)
.PHONY: mpi
mpi: $(MPI_PROGRAMS)
all all-tests: $(MPI_PROGRAMS)

$(call obj,runtime/transport/mpi.c): CFLAGS += $(MPI_CFLAGS)
$(DTSS_MPI_LIB): $(DTSS_MPI_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	$(AR) qcs $@ $^

$(BIN)/mpi/integral: $(call obj,examples/integral.c) $(DTSS_MPI_LIB)
$(BIN)/mpi/loop: $(call obj,examples/loop.c) $(SIM_LIB) $(COST_LIB) $(DTSS_MPI_LIB)
$(BIN)/mpi/coordinator: $(call obj,coordinator/main.c) $(MANDEL_LIB) $(COST_LIB) $(DTSS_MPI_LIB)
$(BIN)/mpi/worker: $(call obj,worker/main.c) $(MANDEL_LIB) $(COST_LIB) $(DTSS_MPI_LIB)
$(BIN)/mpi/matrix: $(call obj,matrix/main.c) $(MATRIX_LIB) $(COST_LIB) $(DTSS_MPI_LIB)
$(BIN)/mpi/matrix: LIBS := $(subst -lgslcblas,-lopenblas,$(LIBS))
$(BIN)/mpi/thin-pool: $(call obj,thin/pvm.c) $(THIN_LIB) $(DTSS_MPI_LIB)
$(BIN)/mpi/yoon-tasks: $(call obj,examples/tasks.c) $(DTSS_MPI_LIB)
$(BIN)/mpi/heat-pvm: $(call obj,heat/pvm.c) $(HEAT_LIB) $(DTSS_MPI_LIB)
$(BIN)/mpi/jacobi: $(call obj,examples/jacobi.c) $(DTSS_MPI_LIB)
$(MPI_PROGRAMS): LIBS += $(MPI_LIBS)
# make bench on MPI (tests/bench_mpi.sh): the runtime's cost per chunk
# (tests/bench_runtime.c on libdtss-mpi) and a raw MPI ping-pong of the same
# messages (tests/mpi_pingpong.c: wire.c's bytes sent by MPI_Send/MPI_Recv,
# no transport linked).
MPI_BENCHES := $(BIN)/mpi/bench_runtime $(BIN)/mpi/pingpong
$(BIN)/mpi/bench_runtime: $(call obj,tests/bench_runtime.c) $(DTSS_MPI_LIB)
$(BIN)/mpi/pingpong: $(call obj,tests/mpi_pingpong.c runtime/core/wire.c runtime/core/buf.c) \
                     $(SCHED_LIB)
$(call obj,tests/mpi_pingpong.c): CFLAGS += $(MPI_CFLAGS)
$(MPI_BENCHES): LIBS += $(MPI_LIBS)
all-tests: $(MPI_BENCHES)
# ---- mpi (end)

# ---- cluster (begin)
# The PVM virtual machine of a hostfile, each host emulated on this machine
# (docs/cluster.md). HOSTFILE: default Table 1's; CLUSTER_MODE: emulate (or
# fail), local (one-host fallback) or real (real machines, over ssh).
HOSTFILE ?= hostfile
.PHONY: cluster-up cluster-down cluster-status

cluster-up: export MAKE_CLUSTER_MODE = $(CLUSTER_MODE)
cluster-up: export MAKE_HOSTFILE = $(HOSTFILE)
cluster-up: deps
	@$(MAKE) --no-print-directory all
	@DTSS_BIN=$(abspath $(BIN)) scripts/cluster up $${MAKE_CLUSTER_MODE:+"--$$MAKE_CLUSTER_MODE"} \
	    "$$MAKE_HOSTFILE"

cluster-down:
	@scripts/cluster down

cluster-status:
	@DTSS_BIN=$(abspath $(BIN)) scripts/cluster status
# ---- cluster (end)

# ---- fuzz (begin)
# libFuzzer harnesses of every parser (tests/fuzz/README.md), built with
# clang, ASan and UBSan from the project's own sources into build/fuzz/.
# make fuzz runs each for FUZZ_SECONDS with its corpus tests/fuzz/corpus/NAME
# and fails on a crash, a hang or a sanitizer report; make test replays the
# corpora (tests/fuzz.sh, which builds them with make fuzz-build).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_RUNS    ?=
FUZZ_ARGV_RUNS ?= 2000
FUZZ_SEED    ?= 1
FUZZ_DIR     := build/fuzz
FUZZ_CFLAGS  := $(CSTD) $(WARN) -O1 -g -fno-omit-frame-pointer -I. \
                -fsanitize=address,undefined,float-cast-overflow -fno-sanitize-recover=all
FUZZ_NAMES   := platform scenario workload costs dag_text dag_dot record options parse \
                pbm thin_task trace wire journal pool_journal lb_journal model_options heat \
                strips_journal
FUZZ_BINS    := $(addprefix $(FUZZ_DIR)/,$(FUZZ_NAMES))
fuzz_obj      = $(patsubst %.c,$(FUZZ_DIR)/obj/%.o,$(1))
.PHONY: fuzz fuzz-build

fuzz-build: $(FUZZ_BINS)

fuzz:
	@command -v $(FUZZ_CC) >/dev/null || { echo "make fuzz needs $(FUZZ_CC): apt-get install -y clang"; exit 1; }
	@$(MAKE) --no-print-directory fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_RUNS=$(FUZZ_RUNS) tests/fuzz/run.sh $(FUZZ_NAMES)
	@echo "every program's options: $(FUZZ_ARGV_RUNS) command lines each, sanitizer build"
	@$(MAKE) --no-print-directory all-tests SAN=1
	@build/san/bin/fuzz_argv build/san/bin $(FUZZ_ARGV_RUNS) $(FUZZ_SEED) 10

$(addprefix $(FUZZ_DIR)/,platform scenario workload costs): \
    $(call fuzz_obj,$(SIM_SRC) $(SCHED_SRC) $(COST_SRC))
$(FUZZ_DIR)/dag_text $(FUZZ_DIR)/dag_dot: $(call fuzz_obj,$(DAG_SRC) $(SCHED_SRC))
$(FUZZ_DIR)/record $(FUZZ_DIR)/parse: $(call fuzz_obj,$(SCHED_SRC))
$(FUZZ_DIR)/options $(FUZZ_DIR)/wire $(FUZZ_DIR)/journal $(FUZZ_DIR)/model_options \
    $(FUZZ_DIR)/strips_journal $(FUZZ_DIR)/pool_journal $(FUZZ_DIR)/lb_journal: \
    $(call fuzz_obj,$(RUNTIME_SRC) $(SIM_CORE_SRC) $(SCHED_SRC))
$(FUZZ_DIR)/pbm $(FUZZ_DIR)/thin_task: $(call fuzz_obj,$(THIN_SRC) $(SCHED_SRC))
$(FUZZ_DIR)/trace: $(call fuzz_obj,$(SIM_SRC) $(SCHED_SRC) $(COST_SRC))
$(FUZZ_DIR)/heat: $(call fuzz_obj,$(HEAT_SRC) $(SCHED_SRC))
$(call fuzz_obj,$(HEAT_SRC) tests/fuzz/heat.c): FUZZ_CFLAGS += -ffp-contract=off
$(FUZZ_DIR)/options $(FUZZ_DIR)/wire $(FUZZ_DIR)/journal $(FUZZ_DIR)/model_options \
    $(FUZZ_DIR)/strips_journal $(FUZZ_DIR)/pool_journal $(FUZZ_DIR)/lb_journal: FUZZ_LIBS := -lpvm3
$(FUZZ_BINS): $(FUZZ_DIR)/%: $(FUZZ_DIR)/obj/tests/fuzz/%.o
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LIBS) $(FUZZ_LIBS)

$(FUZZ_DIR)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

-include $(wildcard $(FUZZ_DIR)/obj/*/*.d $(FUZZ_DIR)/obj/tests/fuzz/*.d)
# ---- fuzz (end)

