#ifndef CXCB_SHIM_H
#define CXCB_SHIM_H
// libxcb and its RandR extension: what `rec devices` lists of an X server (screens, outputs),
// and the screen source's own connection, which watches the screen's size and the server's
// life while libavdevice's x11grab grabs the pictures.
#include <stdlib.h>
#include <xcb/xcb.h>
#include <xcb/randr.h>

static const uint8_t CXCB_RANDR_CONNECTED = XCB_RANDR_CONNECTION_CONNECTED;
#endif
