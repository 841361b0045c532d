package media

import "sync"

// Occupy takes one of the service's finishing slots until the returned release, for tests of
// what waits for one.
func (s *Service) Occupy() (release func()) {
	s.finishing <- struct{}{}
	return sync.OnceFunc(func() { <-s.finishing })
}
