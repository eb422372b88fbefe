#include "support/errors.h"
#include "fault.h"

#include <gtest/gtest.h>

namespace stack {

TEST(FaultPlan, ReadsEveryField) {
    const FaultPlan plan = parse_fault_plan("rank=3,round=17,phase=exchange,action=kill");
    EXPECT_EQ(plan.rank, 3);
    EXPECT_EQ(plan.round, 17u);
    EXPECT_EQ(plan.phase, Phase::Exchange);
    EXPECT_EQ(plan.action, FaultPlan::Action::Kill);
    const FaultPlan thrown = parse_fault_plan("phase=write,round=0,rank=0");
    EXPECT_EQ(thrown.phase, Phase::Write);
    EXPECT_EQ(thrown.action, FaultPlan::Action::Throw);
    EXPECT_EQ(parse_fault_plan("rank=1,round=2,phase=compute,action=pause").action, FaultPlan::Action::Pause);
}

TEST(FaultPlan, RefusesWhatItCannotRead) {
    for (const char* text :
         {"", "rank=1", "rank=1,round=2", "rank=-1,round=2,phase=write", "rank=1,round=-2,phase=write",
          "rank=1,round=99999999999999999999999,phase=write", "rank=1,round=2,phase=sleep",
          "rank=1,round=2,phase=write,action=hang", "rank=1,round=2,phase=write,colour=red",
          "rank=x,round=2,phase=write", "rank=1 ,round=2,phase=write"})
        EXPECT_THROW(parse_fault_plan(text), InputError) << text;
}

}  // namespace stack
