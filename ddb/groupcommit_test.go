package ddb

import (
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestGroupCommit_ConcurrentWriters races conditional puts and counter
// updates from many goroutines, so that commits are shared and some writes
// in a shared commit fail: every key must be created exactly once, every
// increment applied exactly once, and the counters (checked by the
// invariant checker at cleanup) stay exact.
func TestGroupCommit_ConcurrentWriters(t *testing.T) {
	env := mustOpen(t)
	env.createTable("grp", false, gsi("byG", "G", ""))
	const writers, keys = 12, 15
	var wg sync.WaitGroup
	created := make([]int, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range keys {
				_, err := env.client.PutItem(env.ctx, &dynamodb.PutItemInput{
					TableName:           aws.String("grp"),
					Item:                item("PK", s("k"+strconv.Itoa(k)), "G", s("w"+strconv.Itoa(w))),
					ConditionExpression: aws.String("attribute_not_exists(PK)"),
				})
				switch code, _ := apiError(err); code {
				case "":
					created[w]++
				case "ConditionalCheckFailedException":
				default:
					t.Errorf("put: %v", err)
				}
				_, err = env.client.UpdateItem(env.ctx, &dynamodb.UpdateItemInput{
					TableName:        aws.String("grp"),
					Key:              item("PK", s("counter")),
					UpdateExpression: aws.String("ADD c :one"),
					ExpressionAttributeValues: map[string]types.AttributeValue{
						":one": n("1"),
					},
				})
				if err != nil {
					t.Errorf("update: %v", err)
				}
			}
		}()
	}
	wg.Wait()
	total := 0
	for _, c := range created {
		total += c
	}
	if total != keys {
		t.Errorf("%d puts succeeded, want %d (one per key)", total, keys)
	}
	out, err := env.client.GetItem(env.ctx, &dynamodb.GetItemInput{TableName: aws.String("grp"), Key: item("PK", s("counter"))})
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Item["c"].(*types.AttributeValueMemberN).Value; got != strconv.Itoa(writers*keys) {
		t.Errorf("counter = %s, want %d", got, writers*keys)
	}
}

// TestGroupCommit_LeaderWaitsForTheLastGroupsWriters checks the linger: a
// leader whose previous group had four writers waits for three more to
// join rather than committing alone.
func TestGroupCommit_LeaderWaitsForTheLastGroupsWriters(t *testing.T) {
	// The linger is short (maxLinger), so on a slow machine the three may
	// come too late; one attempt in three must see them join.
	for attempt := range 3 {
		if size := lingeringGroupSize(4, 4*maxLinger, 3); size == 4 {
			return
		} else {
			t.Logf("attempt %d: group of %d", attempt, size)
		}
	}
	t.Fatal("the leader never waited for the writers of the last group")
}

// TestGroupCommit_LoneWriterDoesNotWait checks that a leader whose last
// group was itself takes its group at once: writers arriving after it wait
// for the next commit.
func TestGroupCommit_LoneWriterDoesNotWait(t *testing.T) {
	if size := lingeringGroupSize(1, 4*maxLinger, 3); size != 1 {
		t.Fatalf("group of %d, want the leader alone", size)
	}
}

// lingeringGroupSize gathers a leader's group on a queue whose last commit
// had lastSize writers and took lastTook, while others writers try to join
// once the leader has started gathering, and returns the group's size.
func lingeringGroupSize(lastSize int, lastTook time.Duration, others int) int {
	q := &commitQueue{busy: true, lastSize: lastSize, lastTook: lastTook}
	sizes := make(chan int, 1)
	q.mu.Lock()
	go func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		sizes <- len(q.gather(&queuedWrite{}))
	}()
	q.mu.Unlock()
	// Join once the leader lingers, or once it has taken its group.
	for {
		q.mu.Lock()
		if q.joined != nil {
			for range others {
				q.enqueue(&queuedWrite{})
			}
			q.mu.Unlock()
			return <-sizes
		}
		q.mu.Unlock()
		select {
		case size := <-sizes:
			return size
		default:
			runtime.Gosched()
		}
	}
}
