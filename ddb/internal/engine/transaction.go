package engine

// What TransactWriteItems, TransactGetItems and PartiQL's ExecuteTransaction
// share: the action limit and the TransactionCanceledException.

import (
	"fmt"
	"strings"

	"github.com/quickphotos/quickphotos/ddb/attr"
)

// maxTransactItems is DynamoDB's limit on actions per transaction.
const maxTransactItems = 100

// CancellationReason is one element of a TransactionCanceledException's
// CancellationReasons, in action order.
type CancellationReason struct {
	Code    string    `json:"Code"`
	Message string    `json:"Message,omitempty"`
	Item    attr.Item `json:"Item,omitempty"`
}

// TransactionCanceled is the TransactionCanceledException of a transaction
// whose actions failed for reasons (one per action, "None" for the others).
func TransactionCanceled(reasons []CancellationReason) *Error {
	codes := make([]string, len(reasons))
	for i, r := range reasons {
		codes[i] = r.Code
	}
	return &Error{Type: TypeTransactionCanceled, Reasons: reasons,
		Message: fmt.Sprintf("Transaction cancelled, please refer cancellation reasons for specific reasons [%s]", strings.Join(codes, ", "))}
}

// checkTransactItemCount validates the number of a transaction's actions
// (1 to maxTransactItems) in the model's words, which show the list.
func checkTransactItemCount[T any](items []T) error {
	if len(items) >= 1 && len(items) <= maxTransactItems {
		return nil
	}
	bound := "greater than or equal to 1"
	if len(items) > maxTransactItems {
		bound = fmt.Sprintf("less than or equal to %d", maxTransactItems)
	}
	return Validationf("1 validation error detected: Value '[%s]' at 'transactItems' failed to satisfy constraint: Member must have length %s", jsonList(items), bound)
}
