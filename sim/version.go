package sim

// EngineVersion names the engine's behaviour: what Run records for a
// scenario. It changes (a date, YYYY.MM.DD, with a letter when a day has
// several) whenever a scenario that ran before gives a different trace —
// a new rule, a fixed bug, a changed default — and not for changes that
// leave every trace as it was. kflowgen --version prints it beside the
// module version, and serve mixes it into its cache keys.
const EngineVersion = "2026.12.01"
