package engine

// ListTablesInput is the ListTables request.
type ListTablesInput struct {
	ExclusiveStartTableName string `json:"ExclusiveStartTableName"`
	Limit                   *int   `json:"Limit"`
}
