// table_values TABLE [--lazy]: reads board ids (one per line) on stdin and
// prints their values as one JSON array, null where the table does not hold
// the board: the C++ lookup (StackTable) that the Python reader's tests
// compare against.
#include "support/json.h"
#include "table/stack_table.h"

#include <cstdio>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
    if (argc < 2 || argc > 3 || (argc == 3 && std::string(argv[2]) != "--lazy")) {
        std::fprintf(stderr, "usage: table_values TABLE [--lazy] < ids\n");
        return 2;
    }
    try {
        const stack::Residency residency = argc == 3 ? stack::Residency::Lazy : stack::Residency::Resident;
        const stack::StackTable table = stack::StackTable::open(argv[1], {residency, 0});
        stack::Json values = stack::Json::array();
        stack::BoardId id = 0;
        while (std::cin >> id)
            values.push_back(table.holds(id) ? stack::Json(table.value(id)) : stack::Json(nullptr));
        std::fputs(stack::json_text(values).c_str(), stdout);
        return 0;
    } catch (const std::exception& error) {
        std::fprintf(stderr, "table_values: %s\n", error.what());
        return 2;
    }
}
