#pragma once

namespace saltus::flow {

// Which sign change of a guard is an event.
enum class Crossing { kFalling, kRising, kEither };

}  // namespace saltus::flow
