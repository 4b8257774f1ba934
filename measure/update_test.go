package measure

// Every test binary of the module accepts -update (internal/golden).
import _ "github.com/skillopt/skillopt/internal/golden"
