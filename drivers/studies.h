#pragma once
// The command line is a thin layer over the studies library (studies/): the
// run-file descriptions and the studies are the drivers' own names.

namespace saltus::studies {}
namespace saltus::drivers {
using namespace saltus::studies;
}
