// The hidden capture window. Issue 6 adds getUserMedia + an AudioWorklet here (PCM frames to main over
// the bridge); until then the window deliberately loads nothing, so it costs next to no memory.
export {};
