// Queue: StreamFormat, AudioFile, AudioQueue, AudioSession and the render engine. Built out in issues 6 and on.
