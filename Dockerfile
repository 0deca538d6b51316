# The mastermind command in a container, for the pods of a Kubernetes
# Indexed Job (deploy/k8s): a static Go binary on distroless, which has no
# shell, no libc and no package manager, and runs as an unprivileged user.
#
#   docker build -t REGISTRY/mastermind:TAG .
#   docker run --rm REGISTRY/mastermind:TAG bench --rules super
#
# The build context keeps .git, so that the binary records its commit:
# the shards of one job must come from one build (merge checks it).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# No cgo: a static binary that needs nothing from the image.
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/mastermind ./cmd/mastermind

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/mastermind /usr/local/bin/mastermind
# distroless's nonroot user, 65532; the manifests run the pods as it.
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/mastermind"]
