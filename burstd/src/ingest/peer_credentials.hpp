#pragma once
// Who is on the other end of a connected UNIX socket (SO_PEERCRED): the kernel
// vouches for it, so it is what admission to burstd's sockets is based on.

#include <optional>
#include <sys/types.h>

namespace burst {

struct PeerCredentials {
    pid_t pid = 0;
    uid_t uid = 0;
    gid_t gid = 0;
};

std::optional<PeerCredentials> peer_credentials(int fd);

} // namespace burst
