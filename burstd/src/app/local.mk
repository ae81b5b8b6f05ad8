# burstd daemon, config, logging, metrics, control socket
