#include <gd.h>
#include <gdfontl.h>
