// The deal entry form (issue 9): taps, defaults, a half-entered deal kept over a reload.
