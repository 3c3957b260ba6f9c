// libmosquitto (Debian's libmosquitto-dev) for the MQTT client (docs/MQTT.md). Everything it
// declares imports into Swift as it is; this header only gathers what Messaging uses.
#ifndef CMOSQUITTO_SHIM_H
#define CMOSQUITTO_SHIM_H

#include <stdbool.h>
#include <mosquitto.h>

#endif
