# The mastermind commands in a container: both binaries, static Go on
# distroless, which has no shell, no libc and no package manager, run as
# an unprivileged user. By default the image runs the game server on port
# 8080 with its games in the volume /data; the pods of a Kubernetes
# Indexed Job (deploy/k8s) give it other arguments.
#
#   docker build -t REGISTRY/mastermind:TAG .
#   docker run --rm -p 8080:8080 -v mastermind-data:/data REGISTRY/mastermind:TAG
#   docker run --rm REGISTRY/mastermind:TAG bench --rules super
#
# mastermind-full holds what the small command hands on to it (serve,
# play, assist, plots); it must sit beside mastermind, as it does here.
# The build context keeps .git, so that the binaries record their commit:
# the shards of one job must come from one build (merge checks it).
#
# No Docker engine runs in our tests: deploy/k8s's tests read this file,
# run its go build lines as they are written, and run the image's command
# line against the binaries they built (cd deploy/k8s && go test ./...).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# No cgo: static binaries that need nothing from the image.
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/mastermind ./cmd/mastermind
RUN CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o /out/mastermind-full ./cmd/mastermind-full
# The games' volume, owned by the user the server runs as.
RUN mkdir -p /out/data

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/mastermind /usr/local/bin/mastermind
COPY --from=build /out/mastermind-full /usr/local/bin/mastermind-full
COPY --from=build --chown=65532:65532 /out/data /data
VOLUME /data
EXPOSE 8080
# distroless's nonroot user, 65532; the manifests run the pods as it.
USER 65532:65532
ENTRYPOINT ["/usr/local/bin/mastermind"]
CMD ["serve", "--addr", ":8080", "--db", "/data/mastermind.db"]
