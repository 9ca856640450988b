#ifndef WEBSHOOTOUT_WS_H
#define WEBSHOOTOUT_WS_H
#include <stddef.h>
#include <microhttpd.h>
void ws_start(struct MHD_UpgradeResponseHandle *urh, MHD_socket sock, const char *extra, size_t extra_len);
#endif
