// The plan (analyzer/planner/training_plan.h) as people read it and as JSON
// (docs/plan.md): every figure comes from the one TrainingPlan, every default
// the plan assumed is said next to the figure it decides.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "analyzer/planner/training_plan.h"

namespace damscope {

std::string planText(const TrainingPlan& plan);
nlohmann::json planJson(const TrainingPlan& plan);

// The scale-out verdict as one sentence: "fits on one GPU: 41.2 GiB of the
// 72.0 GiB usable", "needs ZeRO stage 2: ...".
std::string scaleOutWords(const TrainingPlan& plan);

}  // namespace damscope
