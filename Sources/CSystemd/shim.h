// libsystemd: sd_notify for service readiness, sd-bus for desktop notifications.
#ifndef CSYSTEMD_SHIM_H
#define CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#include <systemd/sd-bus.h>

// SD_BUS_ERROR_NULL is a macro initialiser Swift cannot import.
static inline sd_bus_error csystemd_bus_error_null(void) {
    sd_bus_error e = SD_BUS_ERROR_NULL;
    return e;
}
#endif
