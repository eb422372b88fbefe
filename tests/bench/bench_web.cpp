// The web viewer's /api/moves answer (play/web/api.h) and its parts, on
// the move benchmark's kind of 10x20 boards: 64 seeded boards with holes
// and overhangs, each of the 7 tetrominoes, BFS with events. The load test
// (scripts/web-load) measures the same answer through HTTP.
#include "bench_boards.h"
#include "srs/moves.h"
#include "web/api.h"

#include <benchmark/benchmark.h>

#include <string>

namespace {

using namespace stack;

// The boards as /api/moves reads them: rows top first, joined by '/'.
const std::vector<std::string>& board_texts() {
    static const std::vector<std::string> texts = [] {
        std::vector<std::string> made;
        for (const moves::SrsBoard& board : bench::move_boards()) {
            std::string text;
            for (int y = board.height() - 1; y >= 0; --y) {
                for (int x = 0; x < board.width(); ++x)
                    text += board.filled(x, y) ? '#' : '.';
                text += y ? "/" : "";
            }
            made.push_back(text);
        }
        return made;
    }();
    return texts;
}

constexpr const char* Letters[] = {"I", "O", "T", "S", "Z", "J", "L"};

// The whole answer as the server sends it (parse, search, inputs, JSON text).
void BM_MovesAnswer(benchmark::State& state) {
    const web::Api api(std::nullopt);
    std::int64_t answers = 0;
    for (auto _ : state)
        for (const std::string& board : board_texts())
            for (const char* piece : Letters) {
                const web::Parameters parameters{{"board", board}, {"piece", piece}, {"algorithm", "bfs"}};
                benchmark::DoNotOptimize(api.moves(parameters).size());
                ++answers;
            }
    state.counters["answers_per_second"] = benchmark::Counter(double(answers), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MovesAnswer)->Unit(benchmark::kMillisecond);

// The parts: the search with its trace, and the shortest inputs of every placement.
void BM_MovesParts(benchmark::State& state) {
    const bool inputs = state.range(0) == 1;
    state.SetLabel(inputs ? "shortest inputs" : "bfs with trace");
    const std::vector<moves::SrsBoard>& boards = bench::move_boards();
    std::int64_t answers = 0;
    std::vector<moves::SearchEvent> events;
    for (auto _ : state)
        for (const moves::SrsBoard& board : boards)
            for (int piece = 0; piece < PieceCount; ++piece) {
                events.clear();
                const auto found = moves::generate(board, Piece(piece), moves::Algorithm::BreadthFirst, {}, &events);
                if (inputs)
                    benchmark::DoNotOptimize(moves::shortest_inputs(board, Piece(piece), found).size());
                ++answers;
            }
    state.counters["answers_per_second"] = benchmark::Counter(double(answers), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MovesParts)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
