#include "fault.h"

#include "support/cli.h"
#include "support/errors.h"

#include <csignal>
#include <cstdlib>
#include <limits>
#include <optional>
#include <sstream>

namespace stack {

// A malformed STACK_FAULT is refused, not ignored.
FaultPlan parse_fault_plan(const std::string& text) {
    FaultPlan fault;
    bool has_rank = false, has_round = false, has_phase = false;
    std::stringstream stream(text);
    std::string item;
    while (std::getline(stream, item, ',')) {
        const auto equals = item.find('=');
        const std::string key = item.substr(0, equals),
                          value = equals == std::string::npos ? "" : item.substr(equals + 1);
        try {
            if (key == "rank")
                fault.rank = parse_int_option("STACK_FAULT rank", value, 0, std::numeric_limits<int>::max()),
                has_rank = true;
            else if (key == "round")
                fault.round = parse_unsigned_option("STACK_FAULT round", value), has_round = true;
            else if (key == "phase" && (value == "compute" || value == "exchange" || value == "write"))
                fault.phase = value == "compute"    ? Phase::Compute
                              : value == "exchange" ? Phase::Exchange
                                                    : Phase::Write,
                has_phase = true;
            else if (key == "action" && (value == "throw" || value == "kill" || value == "pause"))
                fault.action = value == "kill"    ? FaultPlan::Action::Kill
                               : value == "pause" ? FaultPlan::Action::Pause
                                                  : FaultPlan::Action::Throw;
            else
                throw std::invalid_argument(key);
        } catch (const std::exception&) {
            throw InputError("STACK_FAULT: '" + item + "' is not rank=R, round=N, phase=compute|exchange|write or "
                             "action=throw|kill|pause");
        }
    }
    if (!has_rank || !has_round || !has_phase)
        throw InputError("STACK_FAULT needs rank=R, round=N and phase=compute|exchange|write");
    return fault;
}

namespace {

std::optional<FaultPlan> fault_from_environment() {
    const char* text = std::getenv("STACK_FAULT");
    if (!text || !*text)
        return std::nullopt;
    return parse_fault_plan(text);
}

}  // namespace

void inject_fault(int rank, std::size_t round, Phase phase) {
    static const std::optional<FaultPlan> fault = fault_from_environment();
    if (!fault || fault->rank != rank || fault->round != round || fault->phase != phase)
        return;
    if (fault->action == FaultPlan::Action::Kill)
        std::raise(SIGKILL);
    if (fault->action == FaultPlan::Action::Pause) {
        std::raise(SIGSTOP);
        return;
    }
    throw PhaseError(rank, phase, round, "injected failure (STACK_FAULT)");
}

}  // namespace stack
