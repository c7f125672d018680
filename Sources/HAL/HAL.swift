// HAL: the Linux devices the appliance drives (ALSA PCM, I2C register bus, GPIO lines, clock) and a
// simulated twin of each. Built out in issue 4; until then this module only fixes its place in the layering.
