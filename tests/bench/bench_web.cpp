// The web viewer's /api/moves answer (play/web/api.h) and its parts, on
// the move benchmark's kind of 10x20 boards: 64 seeded boards with holes
// and overhangs, each of the 7 tetrominoes, BFS with events. The load test
// (scripts/web-load) measures the same answer through HTTP.
#include "rules/moves.h"
#include "web/api.h"

#include <benchmark/benchmark.h>

#include <random>
#include <string>

namespace {

using namespace stack;

// The boards as /api/moves reads them: rows top first, joined by '/'.
const std::vector<std::string>& board_texts() {
    static const std::vector<std::string> texts = [] {
        std::mt19937_64 random(404);
        std::vector<std::string> made;
        for (int b = 0; b < 64; ++b) {
            std::vector<std::string> rows(20, std::string(10, '.'));
            std::uniform_int_distribution<int> column_height(0, 12);
            std::bernoulli_distribution hole(b % 2 ? 0.25 : 0.0);
            for (int x = 0; x < 10; ++x) {
                const int top = column_height(random);
                for (int y = 0; y < top; ++y)
                    if (!hole(random))
                        rows[std::size_t(19 - y)][std::size_t(x)] = '#';
            }
            std::string text;
            for (const std::string& row : rows)
                text += (text.empty() ? "" : "/") + row;
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
    std::vector<moves::Board> boards;
    for (const std::string& text : board_texts()) {
        moves::Board board(10, 20);
        for (int y = 0; y < 20; ++y)
            for (int x = 0; x < 10; ++x)
                if (text[std::size_t((19 - y) * 11 + x)] == '#')
                    board.fill(x, y);
        boards.push_back(board);
    }
    std::int64_t answers = 0;
    std::vector<moves::SearchEvent> events;
    for (auto _ : state)
        for (const moves::Board& board : boards)
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
