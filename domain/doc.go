// Package domain holds the vocabulary of Quick Photos — User, Photo, Reaction, Friendship —
// the rules their values obey, and the one error type every layer speaks.
//
// It imports nothing of the project: the data layer (package dynamo) turns DynamoDB items and
// failures into these types, and the GraphQL edge (packages resolvers and api) turns them into
// the schema's types and extensions.code. Item shapes (PK, SK, attribute maps) never reach here.
package domain
