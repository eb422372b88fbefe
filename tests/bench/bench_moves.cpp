// The five move-generation algorithms (play/srs/moves.h) on the same 10x20
// boards: 64 boards with holes and overhangs (seeded, so every run sees the
// same ones), each of the 7 tetrominoes. Reports placements found per
// second and (pieces) generations per second; scripts/moves-bench turns the
// JSON into results/moves.md. BM_MoveGenerationTall: BFS on the same
// boards' cells in a 10x40 well spawning at row 19 (the Tetris Bot
// Protocol's spawn).
#include "bench_boards.h"
#include "srs/moves.h"

#include <benchmark/benchmark.h>

#include <cstdio>
#include <random>
#include <string>

namespace {

using namespace stack::moves;

const std::vector<SrsBoard>& boards() { return stack::bench::move_boards(); }

const std::vector<SrsBoard>& tall_boards() {
    static const std::vector<SrsBoard> made = [] {
        std::vector<SrsBoard> tall;
        for (const SrsBoard& board : boards()) {
            SrsBoard copy(board.width(), 40);
            for (int y = 0; y < board.height(); ++y)
                for (int x = 0; x < board.width(); ++x)
                    if (board.filled(x, y))
                        copy.fill(x, y);
            tall.push_back(copy);
        }
        return tall;
    }();
    return made;
}

// Generates every piece on every board, counting placements and
// generations.
void generate_all(benchmark::State& state, const std::vector<SrsBoard>& boards, Algorithm algorithm,
                  const MoveOptions& options) {
    std::int64_t placements = 0, generations = 0;
    for (auto _ : state) {
        for (const SrsBoard& board : boards)
            for (int piece = 0; piece < stack::PieceCount; ++piece) {
                const auto found = generate(board, stack::Piece(piece), algorithm, options);
                placements += std::int64_t(found.size());
                ++generations;
                benchmark::DoNotOptimize(found.data());
            }
    }
    state.counters["placements_per_second"] = benchmark::Counter(double(placements), benchmark::Counter::kIsRate);
    state.counters["generations_per_second"] = benchmark::Counter(double(generations), benchmark::Counter::kIsRate);
    state.counters["placements_per_generation"] = double(placements) / double(generations);
}

void BM_MoveGeneration(benchmark::State& state) {
    const Algorithm algorithm = Algorithm(state.range(0));
    state.SetLabel(algorithm_name(algorithm));
    generate_all(state, boards(), algorithm, {});
}
BENCHMARK(BM_MoveGeneration)->DenseRange(0, 4)->Unit(benchmark::kMillisecond);

void BM_MoveGenerationTall(benchmark::State& state) {
    state.SetLabel("BFS, 10x40, spawn row 19");
    MoveOptions options;
    options.spawn_row = 19;
    generate_all(state, tall_boards(), Algorithm::BreadthFirst, options);
}
BENCHMARK(BM_MoveGenerationTall)->Unit(benchmark::kMillisecond);

}  // namespace

// `bench_moves --generate ALGORITHM ROUNDS` runs ROUNDS passes over the
// boards and pieces and prints the placements found, nothing else: under
// valgrind --tool=callgrind two ROUNDS give the instructions per
// generation, a count that does not depend on the machine's load
// (scripts/moves-bench).
int main(int argc, char** argv) {
    if (argc == 4 && std::string(argv[1]) == "--generate") {
        const Algorithm algorithm = Algorithm(std::stoi(argv[2]));
        std::int64_t placements = 0;
        for (int round = std::stoi(argv[3]); round > 0; --round)
            for (const SrsBoard& board : boards())
                for (int piece = 0; piece < stack::PieceCount; ++piece)
                    placements += std::int64_t(generate(board, stack::Piece(piece), algorithm).size());
        std::printf("%lld\n", static_cast<long long>(placements));
        return 0;
    }
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
