#include <stack/table.h>
#include <cstdio>
#include <vector>

int main(int argc, char** argv) {
    const stack::Table table = stack::Table::open(argc > 1 ? argv[1] : "stack_4x20.h5");
    const std::vector<int> empty(std::size_t(table.width()), 0);
    std::printf("V(empty %dx%d) = %.12f\n", table.width(), table.height(), table.value(empty));
    if (const auto move = table.best_placement(empty, 'T'))
        std::printf("T: rotation %d, column %d, value after %.12f\n", move->rotation, move->column, move->value);
}
