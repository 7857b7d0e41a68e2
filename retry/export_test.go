package retry

// MaxDrainForTest is maxDrain, for the test of the drain bound.
const MaxDrainForTest = maxDrain
