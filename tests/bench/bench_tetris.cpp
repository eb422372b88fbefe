// The real game's speed (play/tetris): whole Dellacherie games with one
// piece known, one Lee decision with seed 000's window of 4 known pieces
// (--preview 3), and the leaf evaluations alone. Counters: pieces/s,
// leaves/s (per thread: each benchmark runs on one thread unless it says).
#include "rules/rules.h"
#include "tetris/game.h"
#include "tetris/search.h"

#include <benchmark/benchmark.h>

namespace {

using namespace stack::tetris;

struct Fixture {
    stack::PieceSet set = stack::PieceSet::builtin("tetrominoes");
    stack::Rules rules{set};
    ShapeSet shapes{set};
    TetrisPolicy policy(const std::string& name, int preview) const {
        return TetrisPolicy(shapes, parse_tetris_policy(name, preview, 0), std::vector<double>(7, 1.0 / 7));
    }
};

// Dellacherie games of 100,000 pieces (they do not top out that soon).
void BM_DellacherieGame(benchmark::State& state) {
    const Fixture fixture;
    const TetrisPolicy policy = fixture.policy("dellacherie", 0);
    TetrisOptions options;
    options.max_pieces = 100000;
    std::uint64_t pieces = 0, game = 0;
    for (auto _ : state) {
        const GameRecord record = play_tetris_game(options, fixture.rules, fixture.shapes, policy, nullptr, game++, 1);
        pieces += record.pieces;
        benchmark::DoNotOptimize(record.lines);
    }
    state.counters["pieces_per_second"] = benchmark::Counter(double(pieces), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DellacherieGame)->Unit(benchmark::kMillisecond);

// Seed 000's headline: 500 pieces with a window of 4 known pieces, the
// intended tree (every known piece placed), Lee's score; Arg = threads.
void BM_LeePreview3Game(benchmark::State& state) {
    const Fixture fixture;
    const TetrisPolicy policy = fixture.policy("lee", 3);
    TetrisOptions options;
    options.max_pieces = 500;
    std::uint64_t pieces = 0, leaves = 0;
    for (auto _ : state) {
        const GameRecord record =
            play_tetris_game(options, fixture.rules, fixture.shapes, policy, nullptr, 0, int(state.range(0)));
        pieces += record.pieces;
        leaves += record.leaves;
    }
    state.counters["pieces_per_second"] = benchmark::Counter(double(pieces), benchmark::Counter::kIsRate);
    state.counters["leaves_per_second"] = benchmark::Counter(double(leaves), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_LeePreview3Game)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
