#include <exempi/xmp.h>
