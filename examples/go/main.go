// A game backend in Go calling climbot: for each game (Lexio, The Great Dalmuti,
// Daifugo) it builds a view, asks ListLegalPlays for every legal decision, asks
// SelectPlay for the bot's decision, checks that the decision is one of the legal
// ones, and replays it with the echoed seed. It asks AnalyzePlay for a hint for a human
// in that seat (the best three decisions, and a review of one the player considers).
// Then it sends a broken view and checks that it is refused with INVALID_ARGUMENT
// naming the field.
//
//	go run . 127.0.0.1:50051
//	go run . -ca ca.crt 127.0.0.1:50051                                  # TLS
//	go run . -ca ca.crt -cert client.crt -key client.key 127.0.0.1:50051 # mutual TLS
//
// Plaintext by default; -ca calls over TLS, trusting the server's certificate when that
// CA signed it; -cert and -key add a client certificate for mutual TLS.
//
// The code in gen/ is generated from ../../proto (see README.md).
package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/prototext"
	"google.golang.org/protobuf/proto"

	pb "example.com/climbot-client/gen/climbot/v1"
)

func tile(number uint32, suit pb.LexioSuit) *pb.LexioTile {
	return &pb.LexioTile{Number: number, Suit: suit}
}

// lexioView: four players; seat 1 led the star 3; the bot, seat 2, must beat it or pass.
func lexioView() *pb.GameView {
	const cloud, star, moon, sun = pb.LexioSuit_LEXIO_SUIT_CLOUD, pb.LexioSuit_LEXIO_SUIT_STAR,
		pb.LexioSuit_LEXIO_SUIT_MOON, pb.LexioSuit_LEXIO_SUIT_SUN
	star3 := tile(3, star)
	return &pb.GameView{Game: &pb.GameView_Lexio{Lexio: &pb.LexioView{
		PlayerCount: 4,
		Seat:        2,
		Hand: []*pb.LexioTile{tile(3, moon), tile(4, cloud), tile(4, sun), tile(5, star),
			tile(6, moon), tile(7, sun), tile(9, cloud), tile(9, star), tile(9, moon),
			tile(11, cloud), tile(12, sun), tile(1, star), tile(2, cloud)},
		Table: &pb.LexioTable{Owner: proto.Uint32(1), Tiles: []*pb.LexioTile{star3}},
		Seats: []*pb.LexioSeat{{TileCount: 13}, {TileCount: 12}, {TileCount: 13},
			{TileCount: 13}},
		Played: []*pb.LexioTile{star3},
		Log:    []*pb.LexioLogEntry{{Seat: 1, Tiles: []*pb.LexioTile{star3}}},
		Round:  1,
		Scores: []int64{0, 0, 0, 0},
	}}}
}

// dalmutiView: five players, first hand; the Greater Dalmuti (seat 0) leads with 16
// cards: one rank-1 card, two 2s, three 3s, four 4s, five 5s and one 6.
func dalmutiView() *pb.GameView {
	titles := []pb.DalmutiTitle{
		pb.DalmutiTitle_DALMUTI_TITLE_GREATER_DALMUTI,
		pb.DalmutiTitle_DALMUTI_TITLE_LESSER_DALMUTI,
		pb.DalmutiTitle_DALMUTI_TITLE_MERCHANT,
		pb.DalmutiTitle_DALMUTI_TITLE_LESSER_PEON,
		pb.DalmutiTitle_DALMUTI_TITLE_GREATER_PEON,
	}
	seats := make([]*pb.DalmutiSeat, len(titles))
	for i, title := range titles {
		seats[i] = &pb.DalmutiSeat{CardCount: 16, Title: title}
	}
	return &pb.GameView{Game: &pb.GameView_Dalmuti{Dalmuti: &pb.DalmutiView{
		Seat:       0,
		Phase:      pb.DalmutiPhase_DALMUTI_PHASE_PLAY,
		Hand:       &pb.DalmutiCards{Counts: []uint32{1, 2, 3, 4, 5, 1, 0, 0, 0, 0, 0, 0, 0}},
		Seats:      seats,
		HandNumber: 1,
		HandsLeft:  19,
	}}}
}

func card(rank uint32, suit pb.DaifugoSuit) *pb.DaifugoCard {
	return &pb.DaifugoCard{Rank: rank, Suit: suit}
}

// daifugoView: four players, game 1 under the house rules; seat 0 holds the diamond 3
// (and 13 more cards, the joker among them) and leads.
func daifugoView() *pb.GameView {
	const spades, hearts, diamonds, clubs = pb.DaifugoSuit_DAIFUGO_SUIT_SPADES,
		pb.DaifugoSuit_DAIFUGO_SUIT_HEARTS, pb.DaifugoSuit_DAIFUGO_SUIT_DIAMONDS,
		pb.DaifugoSuit_DAIFUGO_SUIT_CLUBS
	hand := []*pb.DaifugoCard{card(3, diamonds), card(4, spades), card(5, hearts),
		card(5, clubs), card(7, diamonds), card(8, spades), card(9, hearts),
		card(10, spades), card(11, diamonds), card(12, clubs), card(13, hearts),
		card(14, spades), card(15, diamonds), {Joker: 1}}
	seats := []*pb.DaifugoSeat{}
	for _, count := range []uint32{14, 13, 13, 13} {
		seats = append(seats, &pb.DaifugoSeat{CardCount: count,
			Title: pb.DaifugoTitle_DAIFUGO_TITLE_HEIMIN})
	}
	return &pb.GameView{Game: &pb.GameView_Daifugo{Daifugo: &pb.DaifugoView{
		Rules: &pb.DaifugoRules{Preset: pb.DaifugoRulePreset_DAIFUGO_RULE_PRESET_HOUSE},
		Seat:  0,
		Game:  1,
		Phase: pb.DaifugoPhase_DAIFUGO_PHASE_PLAY,
		Hand:  hand,
		Seats: seats,
	}}}
}

// legalDecisions: the list ListLegalPlays answers, as Decision messages.
func legalDecisions(r *pb.ListLegalPlaysResponse) []*pb.Decision {
	var out []*pb.Decision
	switch g := r.Game.(type) {
	case *pb.ListLegalPlaysResponse_Lexio:
		for _, d := range g.Lexio.Decisions {
			out = append(out, &pb.Decision{Game: &pb.Decision_Lexio{Lexio: d}})
		}
	case *pb.ListLegalPlaysResponse_Dalmuti:
		for _, d := range g.Dalmuti.Decisions {
			out = append(out, &pb.Decision{Game: &pb.Decision_Dalmuti{Dalmuti: d}})
		}
	case *pb.ListLegalPlaysResponse_Daifugo:
		for _, d := range g.Daifugo.Decisions {
			out = append(out, &pb.Decision{Game: &pb.Decision_Daifugo{Daifugo: d}})
		}
	}
	return out
}

func contains(list []*pb.Decision, d *pb.Decision) bool {
	for _, l := range list {
		if proto.Equal(l, d) {
			return true
		}
	}
	return false
}

// listLegal asks ListLegalPlays for every legal decision in `view`; at least one.
func listLegal(ctx context.Context, client pb.BotServiceClient, name string,
	view *pb.GameView) ([]*pb.Decision, error) {
	legal, err := client.ListLegalPlays(ctx, &pb.ListLegalPlaysRequest{View: view})
	if err != nil {
		return nil, fmt.Errorf("%s: ListLegalPlays: %w", name, err)
	}
	decisions := legalDecisions(legal)
	if len(decisions) == 0 {
		return nil, fmt.Errorf("%s: no legal decision listed", name)
	}
	return decisions, nil
}

// play asks for one decision in `view` at `level` and checks it; returns an error
// describing the first problem.
func play(client pb.BotServiceClient, name string, view *pb.GameView,
	level pb.Difficulty) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	decisions, err := listLegal(ctx, client, name, view)
	if err != nil {
		return err
	}
	budget := uint32(200)
	reply, err := client.SelectPlay(ctx, &pb.SelectPlayRequest{
		View: view, Difficulty: level, BudgetMs: &budget})
	if err != nil {
		return fmt.Errorf("%s: SelectPlay: %w", name, err)
	}
	if !contains(decisions, reply.Decision) {
		return fmt.Errorf("%s: %v is not among the %d legal decisions", name,
			reply.Decision, len(decisions))
	}
	// The same view, level and seed give the same decision.
	seed := reply.Seed
	again, err := client.SelectPlay(ctx, &pb.SelectPlayRequest{
		View: view, Difficulty: level, BudgetMs: &budget, Seed: &seed})
	if err != nil {
		return fmt.Errorf("%s: replay: %w", name, err)
	}
	if !proto.Equal(again.Decision, reply.Decision) {
		return fmt.Errorf("%s: the replay with seed %d answered %v, not %v", name, seed,
			again.Decision, reply.Decision)
	}
	fmt.Printf("%s: %d legal decisions; %s plays %s (seed %d, %d us)\n", name,
		len(decisions), level, prototext.MarshalOptions{}.Format(reply.Decision), reply.Seed,
		reply.ComputeMicros)
	return nil
}

// withStrength asks for a decision at a strength on the game's ladder rating scale
// (Elo, random = 0) instead of a level: the server plays its calibrated setting nearest
// the target and answers with that setting's rating and the level it is built from. A
// strength sent with a level is refused naming `strength`.
func withStrength(client pb.BotServiceClient, name string, view *pb.GameView) error {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	decisions, err := listLegal(ctx, client, name, view)
	if err != nil {
		return err
	}
	target, iterations := 900.0, uint32(200)
	request := &pb.SelectPlayRequest{View: view, Strength: &target, MaxIterations: &iterations}
	reply, err := client.SelectPlay(ctx, request)
	if err != nil {
		return fmt.Errorf("%s: SelectPlay at strength %g: %w", name, target, err)
	}
	if !contains(decisions, reply.Decision) {
		return fmt.Errorf("%s: %v is not among the %d legal decisions", name,
			reply.Decision, len(decisions))
	}
	if reply.Strength == nil || reply.Difficulty == pb.Difficulty_DIFFICULTY_UNSPECIFIED {
		return fmt.Errorf("%s: the answer says no strength or no level", name)
	}
	seed := reply.Seed
	request.Seed = &seed
	again, err := client.SelectPlay(ctx, request)
	if err != nil {
		return fmt.Errorf("%s: replay at strength %g: %w", name, target, err)
	}
	if !proto.Equal(again.Decision, reply.Decision) {
		return fmt.Errorf("%s: the replay at strength %g with seed %d differs", name, target, seed)
	}
	_, err = client.SelectPlay(ctx, &pb.SelectPlayRequest{View: view, Strength: &target,
		Difficulty: pb.Difficulty_DIFFICULTY_HARD})
	st, _ := status.FromError(err)
	if st.Code() != codes.InvalidArgument || !strings.HasPrefix(st.Message(), "strength: ") {
		return fmt.Errorf("%s: a strength with a level: got %v, want INVALID_ARGUMENT on "+
			"strength", name, err)
	}
	fmt.Printf("%s: strength %g plays the setting rated %g (%s)\n", name, target,
		reply.GetStrength(), reply.Difficulty)
	return nil
}

// hint asks AnalyzePlay for a hint for a human in this seat: the best three decisions
// with the outcome each is expected to give, and the review of the one the player
// considers (here the last legal decision). A fixed MaxIterations makes it replayable
// with the echoed seed.
func hint(client pb.BotServiceClient, name string, view *pb.GameView) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	decisions, err := listLegal(ctx, client, name, view)
	if err != nil {
		return err
	}
	considered := decisions[len(decisions)-1]
	top, budget, iterations := uint32(3), uint32(2000), uint32(20*len(decisions))
	request := &pb.AnalyzePlayRequest{View: view, Decision: considered, Top: &top,
		BudgetMs: &budget, MaxIterations: &iterations}
	reply, err := client.AnalyzePlay(ctx, request)
	if err != nil {
		return fmt.Errorf("%s: AnalyzePlay: %w", name, err)
	}
	if len(reply.Decisions) == 0 || !reply.Decisions[0].Best {
		return fmt.Errorf("%s: the first decision listed is not the best", name)
	}
	for _, d := range reply.Decisions {
		if !contains(decisions, d.Decision) {
			return fmt.Errorf("%s: the hint lists %v, not a legal decision", name, d.Decision)
		}
	}
	if !proto.Equal(reply.GetReview().GetDecision(), considered) {
		return fmt.Errorf("%s: the review is of another decision", name)
	}
	seed := reply.Seed
	request.Seed = &seed
	again, err := client.AnalyzePlay(ctx, request)
	if err != nil {
		return fmt.Errorf("%s: AnalyzePlay replay: %w", name, err)
	}
	// The same seed and the same number of playouts give the same analysis. On a loaded
	// machine the budget can end one of the two before MaxIterations; then they differ
	// in work, and only the work is compared.
	if again.SearchIterations != reply.SearchIterations {
		fmt.Printf("%s: the budget ended a hint early (%d and %d playouts); not compared\n",
			name, reply.SearchIterations, again.SearchIterations)
	} else if !sameAnalysis(again, reply) {
		return fmt.Errorf("%s: the replayed analysis with seed %d differs", name, seed)
	}
	direction := "lower"
	if reply.HigherIsBetter {
		direction = "higher"
	}
	best := reply.Decisions[0]
	fmt.Printf("%s: hint %s expects %.2f %s (%s is better, 95%% [%.2f, %.2f]); the "+
		"considered decision is %s (loses %.2f); %d playouts\n", name,
		prototext.MarshalOptions{}.Format(best.Decision), best.Expected, reply.Unit,
		direction, best.Ci95Low, best.Ci95High, reply.Review.Category, reply.Review.Loss,
		reply.SearchIterations)
	return nil
}

// sameAnalysis compares what an analysis found (its decisions and review), leaving out
// the compute time, which differs between calls.
func sameAnalysis(a, b *pb.AnalyzePlayResponse) bool {
	if len(a.Decisions) != len(b.Decisions) || !proto.Equal(a.Review, b.Review) {
		return false
	}
	for i := range a.Decisions {
		if !proto.Equal(a.Decisions[i], b.Decisions[i]) {
			return false
		}
	}
	return true
}

// refused sends a Lexio view whose first tile has no suit and checks the error.
func refused(client pb.BotServiceClient) error {
	view := lexioView()
	view.GetLexio().Hand[0].Suit = pb.LexioSuit_LEXIO_SUIT_UNSPECIFIED
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err := client.SelectPlay(ctx, &pb.SelectPlayRequest{View: view})
	st, _ := status.FromError(err)
	if st.Code() != codes.InvalidArgument ||
		!strings.HasPrefix(st.Message(), "view.lexio.hand[0].suit: ") {
		return fmt.Errorf("a view without a suit: got %v, want INVALID_ARGUMENT on "+
			"view.lexio.hand[0].suit", err)
	}
	fmt.Printf("bad view refused: %s: %s\n", st.Code(), st.Message())
	return nil
}

// transport: plaintext without a CA file; TLS trusting the CA file's certificates, with
// a client certificate (mutual TLS) when certFile and keyFile are given.
func transport(caFile, certFile, keyFile string) (grpc.DialOption, error) {
	if caFile == "" {
		return grpc.WithInsecure(), nil // insecure.NewCredentials() on gRPC-Go >= 1.34
	}
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return nil, err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return nil, fmt.Errorf("%s: no PEM certificate in it", caFile)
	}
	config := &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	if certFile != "" {
		pair, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, err
		}
		config.Certificates = []tls.Certificate{pair}
	}
	return grpc.WithTransportCredentials(credentials.NewTLS(config)), nil
}

// reachable makes one call that should succeed; its error says why it did not.
func reachable(client pb.BotServiceClient) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := client.ListLegalPlays(ctx, &pb.ListLegalPlaysRequest{View: lexioView()})
	return err
}

func main() {
	caFile := flag.String("ca", "", "call over TLS, trusting the CA certificates in this PEM `file`")
	certFile := flag.String("cert", "", "mutual TLS: the client certificate chain (PEM `file`); needs -key")
	keyFile := flag.String("key", "", "mutual TLS: the client certificate's private key (PEM `file`)")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(),
			"usage: %s [-ca FILE [-cert FILE -key FILE]] [ADDRESS (default 127.0.0.1:50051)]\n",
			os.Args[0])
		flag.PrintDefaults()
	}
	flag.Parse()
	addr := "127.0.0.1:50051"
	if flag.NArg() > 0 {
		addr = flag.Arg(0)
	}
	if (*certFile == "") != (*keyFile == "") {
		fmt.Fprintln(os.Stderr, "go: -cert and -key go together")
		os.Exit(2)
	}
	if *certFile != "" && *caFile == "" {
		fmt.Fprintln(os.Stderr, "go: -cert and -key need -ca (a client certificate is sent over TLS)")
		os.Exit(2)
	}
	creds, err := transport(*caFile, *certFile, *keyFile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "go:", err)
		os.Exit(2)
	}
	conn, err := grpc.Dial(addr, creds)
	if err != nil {
		fmt.Fprintf(os.Stderr, "go: %s: %v\n", addr, err)
		os.Exit(2)
	}
	defer conn.Close()
	client := pb.NewBotServiceClient(conn)
	// One call first, so that a server that cannot be reached (or whose TLS does not
	// match ours) is reported once, clearly, instead of as four failed checks.
	if err := reachable(client); err != nil {
		how := "plaintext (no -ca)"
		if *certFile != "" {
			how = "TLS trusting " + *caFile + ", with the client certificate " + *certFile
		} else if *caFile != "" {
			how = "TLS trusting " + *caFile + ", without a client certificate"
		}
		fmt.Fprintf(os.Stderr, "go: cannot call %s over %s: %v\n", addr, how, err)
		os.Exit(2)
	}
	checks := []func() error{
		func() error { return play(client, "lexio", lexioView(), pb.Difficulty_DIFFICULTY_HARD) },
		func() error {
			return play(client, "dalmuti", dalmutiView(), pb.Difficulty_DIFFICULTY_HARD)
		},
		func() error {
			return play(client, "daifugo", daifugoView(), pb.Difficulty_DIFFICULTY_HARD)
		},
		func() error { return withStrength(client, "lexio", lexioView()) },
		func() error { return withStrength(client, "dalmuti", dalmutiView()) },
		func() error { return withStrength(client, "daifugo", daifugoView()) },
		func() error { return hint(client, "lexio", lexioView()) },
		func() error { return hint(client, "dalmuti", dalmutiView()) },
		func() error { return hint(client, "daifugo", daifugoView()) },
		func() error { return refused(client) },
	}
	failed := 0
	for _, check := range checks {
		if err := check(); err != nil {
			fmt.Fprintln(os.Stderr, "FAIL:", err)
			failed++
		}
	}
	fmt.Printf("go: %d passed, %d failed\n", len(checks)-failed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}
