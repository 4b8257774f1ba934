package measure

import "github.com/skillopt/skillopt/rules"

// CatalogReport details what the catalog rules do to a capture.
type CatalogReport struct{}

// catalogReport returns the catalog detail of a pipeline result, or nil.
func catalogReport(res *rules.Result, opts Options) *CatalogReport { return nil }
