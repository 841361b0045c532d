// Package deploy holds the deployment's artifacts: the AWS SAM template (template.yaml) and the
// container image's Dockerfile, with the tests that prove them offline: the template's table is
// the one `quickphotos table create` builds and its policies allow exactly the AWS actions the
// code calls; the image builds, holds what it should and answers. See README.md.
package deploy
