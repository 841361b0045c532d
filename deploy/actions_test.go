package deploy

import (
	"fmt"
	"go/types"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

const module = "github.com/quickphotos/quickphotos"

// sdkServices maps the AWS SDK's service packages to their IAM prefixes. A call into one is
// recognised by its request type: a method whose second parameter is *<Operation>Input of the
// service's package performs <prefix>:<Operation>. That covers the clients
// (*dynamodb.Client.GetItem), the store's interfaces over them (dynamo.API.GetItem) and the
// presigners (s3.PresignClient.PresignPostObject takes *s3.PutObjectInput, and the POST it
// signs is an s3:PutObject made with the function's credentials).
var sdkServices = map[string]string{
	"github.com/aws/aws-sdk-go-v2/service/dynamodb":        "dynamodb",
	"github.com/aws/aws-sdk-go-v2/service/dynamodbstreams": "dynamodb",
	"github.com/aws/aws-sdk-go-v2/service/s3":              "s3",
}

var loadProgram = sync.OnceValues(func() (*ssa.Program, error) { return load(module + "/...") })

// loadCarriers loads testdata/carriers alone (a directory named testdata is in no "..."
// pattern): the calls whose actions travel inside them that the module does not make.
var loadCarriers = sync.OnceValues(func() (*ssa.Program, error) { return load(module + "/deploy/testdata/carriers") })

func load(patterns ...string) (*ssa.Program, error) {
	cfg := &packages.Config{
		Mode: packages.LoadSyntax,
		Dir:  "..",
	}
	pkgs, err := packages.Load(cfg, patterns...)
	if err != nil {
		return nil, err
	}
	var errs []string
	packages.Visit(pkgs, nil, func(p *packages.Package) {
		for _, e := range p.Errors {
			errs = append(errs, e.Error())
		}
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("loading the module: %s", strings.Join(errs, "; "))
	}
	prog, _ := ssautil.Packages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	return prog, nil
}

// actionsReachedFrom returns the IAM actions that code reachable from roots needs, each with a
// caller where the code asks for it (iamactions_test.go says how an SDK operation, and what it
// carries, becomes IAM actions). It finds the calls by walking the module's code from the roots: every function referenced by reached
// code (called, or taken as a value, as a callback is) is reached, and so is every method of a
// module type that reached code turns into a value of an interface from outside the module
// (code there, such as gqlgen's executor or net/http, may call it through the interface); into
// one of the module's own interfaces, only that interface's methods are; and a call through
// one of the module's interfaces reaches every module type implementing it. Only the module's code
// is walked: a call of an AWS SDK operation counts as its operation and ends there; the items of
// a transaction or the statements of PartiQL the walked code builds count as what the operation
// that carries them does (a Delete in a TransactWriteItems is a DeleteItem). The walk errs
// towards calls the code may never make; what it cannot see is code reached only by reflection,
// or through a library's interface holding a module value made outside the walk.
func actionsReachedFrom(t *testing.T, roots ...string) map[string]string {
	t.Helper()
	prog, err := loadProgram()
	if err != nil {
		t.Fatal(err)
	}
	return walk(t, prog, roots...)
}

func walk(t *testing.T, prog *ssa.Program, roots ...string) map[string]string {
	t.Helper()
	reached := map[*ssa.Function]bool{}
	var queue []*ssa.Function
	add := func(f *ssa.Function) {
		if f == nil || reached[f] || !inModule(f) {
			return
		}
		reached[f] = true
		queue = append(queue, f)
	}
	for _, r := range roots {
		f := findFunction(prog, r)
		if f == nil {
			t.Fatalf("root %s is not a function of the module", r)
		}
		add(f)
	}
	calls := map[string]string{}
	carried := map[string]map[string]string{}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, b := range f.Blocks {
			for _, instr := range b.Instrs {
				if call, ok := instr.(ssa.CallInstruction); ok {
					c := call.Common()
					if a := sdkAction(c); a != "" {
						if _, seen := calls[a]; !seen {
							calls[a] = f.String()
						}
					} else if c.IsInvoke() && moduleType(c.Value.Type()) {
						// A call through one of the module's interfaces reaches the method of
						// every module type that implements it, wherever that type is made (the
						// store of a client the caller was handed, say).
						for _, impl := range implementations(prog, c.Value.Type().Underlying().(*types.Interface)) {
							add(prog.MethodValue(prog.MethodSets.MethodSet(impl).Lookup(c.Method.Pkg(), c.Method.Name())))
						}
					}
				}
				if st, ok := instr.(*ssa.Store); ok {
					if carrier, action := carriedAction(t, f, st); action != "" {
						if carried[carrier] == nil {
							carried[carrier] = map[string]string{}
						}
						if _, seen := carried[carrier][action]; !seen {
							carried[carrier][action] = f.String()
						}
					}
				}
				if mi, ok := instr.(*ssa.MakeInterface); ok && moduleType(mi.X.Type()) {
					// Put in one of the module's own interfaces, a value can be called only
					// through that interface's methods (calls through it are walked as such);
					// put in any other, code outside the module may call any of its methods.
					iface, own := mi.Type().Underlying().(*types.Interface), moduleType(mi.Type())
					mset := prog.MethodSets.MethodSet(mi.X.Type())
					for i := 0; i < mset.Len(); i++ {
						if own {
							if obj, _, _ := types.LookupFieldOrMethod(iface, false, mset.At(i).Obj().Pkg(), mset.At(i).Obj().Name()); obj == nil {
								continue
							}
						}
						add(prog.MethodValue(mset.At(i)))
					}
				}
				var ops [8]*ssa.Value
				for _, op := range instr.Operands(ops[:0]) {
					if op == nil || *op == nil {
						continue
					}
					if fn, ok := (*op).(*ssa.Function); ok {
						add(fn)
					}
				}
			}
		}
	}
	return authorised(t, calls, carried)
}

// sdkAction is the AWS action a call performs, "" when it is not a call of an SDK operation.
func sdkAction(c *ssa.CallCommon) string {
	var sig *types.Signature
	if c.IsInvoke() {
		sig = c.Method.Type().(*types.Signature)
	} else if fn := c.StaticCallee(); fn != nil {
		sig = fn.Signature
	} else {
		return ""
	}
	if sig.Params().Len() < 2 {
		return ""
	}
	ptr, ok := sig.Params().At(1).Type().(*types.Pointer)
	if !ok {
		return ""
	}
	named, ok := ptr.Elem().(*types.Named)
	if !ok || named.Obj().Pkg() == nil {
		return ""
	}
	prefix, ok := sdkServices[named.Obj().Pkg().Path()]
	if !ok || !strings.HasSuffix(named.Obj().Name(), "Input") {
		return ""
	}
	return prefix + ":" + strings.TrimSuffix(named.Obj().Name(), "Input")
}

var moduleTypesOf sync.Map // *ssa.Program → []types.Type

// moduleTypes returns the module's named types (T and *T) in prog.
func moduleTypes(prog *ssa.Program) []types.Type {
	if v, ok := moduleTypesOf.Load(prog); ok {
		return v.([]types.Type)
	}
	var out []types.Type
	for _, p := range prog.AllPackages() {
		if !isModulePath(p.Pkg.Path()) {
			continue
		}
		for _, m := range p.Members {
			if tn, ok := m.(*ssa.Type); ok && !types.IsInterface(tn.Type()) {
				out = append(out, tn.Type(), types.NewPointer(tn.Type()))
			}
		}
	}
	moduleTypesOf.Store(prog, out)
	return out
}

// implementations returns the module's types (T or *T) that implement iface.
func implementations(prog *ssa.Program, iface *types.Interface) []types.Type {
	var out []types.Type
	for _, t := range moduleTypes(prog) {
		if types.Implements(t, iface) {
			out = append(out, t)
		}
	}
	return out
}

func inModule(f *ssa.Function) bool {
	if o := f.Origin(); o != nil {
		f = o
	}
	for f.Parent() != nil {
		f = f.Parent()
	}
	if f.Pkg == nil {
		// A synthetic wrapper (a bound method, an interface thunk): walking it leads to the
		// method it wraps, which is then judged by its own package.
		return f.Synthetic != ""
	}
	return isModulePath(f.Pkg.Pkg.Path())
}

func isModulePath(p string) bool { return p == module || strings.HasPrefix(p, module+"/") }

func moduleType(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := t.(*types.Named)
	return ok && named.Obj().Pkg() != nil && isModulePath(named.Obj().Pkg().Path())
}

// findFunction finds "pkgpath.Func" or "pkgpath.(*Type).Method" (or "pkgpath.Type.Method").
func findFunction(prog *ssa.Program, name string) *ssa.Function {
	for _, p := range prog.AllPackages() {
		path := p.Pkg.Path()
		if !strings.HasPrefix(name, path+".") {
			continue
		}
		rest := strings.TrimPrefix(name, path+".")
		if f := p.Func(rest); f != nil {
			return f
		}
		recv, method, ok := strings.Cut(rest, ").")
		pointer := strings.HasPrefix(recv, "(*")
		if !ok {
			recv, method, ok = strings.Cut(rest, ".")
		}
		if !ok {
			continue
		}
		tn := p.Type(strings.TrimPrefix(recv, "(*"))
		if tn == nil {
			continue
		}
		var t types.Type = tn.Type()
		if pointer {
			t = types.NewPointer(t)
		}
		if sel := prog.MethodSets.MethodSet(t).Lookup(p.Pkg, method); sel != nil {
			return prog.MethodValue(sel)
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestActionsReached_Carried: what IAM checks of the calls that carry their actions, in the
// calls of testdata/carriers: a transaction's items and PartiQL statements by their own
// actions, the carrier by none, a batch write by its own alone.
func TestActionsReached_Carried(t *testing.T) {
	prog, err := loadCarriers()
	if err != nil {
		t.Fatal(err)
	}
	for fn, want := range map[string][]string{
		"TransactGet":     {"dynamodb:GetItem"},
		"TransactWrite":   {"dynamodb:ConditionCheckItem", "dynamodb:PutItem"},
		"Statement":       {"dynamodb:PartiQLDelete"},
		"BatchStatements": {"dynamodb:PartiQLInsert", "dynamodb:PartiQLSelect"},
		"Transaction":     {"dynamodb:PartiQLUpdate"},
		"BatchWrite":      {"dynamodb:BatchWriteItem"},
	} {
		got := sortedKeys(walk(t, prog, module+"/deploy/testdata/carriers."+fn))
		if !slices.Equal(got, want) {
			t.Errorf("%s needs %v, want %v", fn, got, want)
		}
	}
}

// TestActionsReached pins the walk itself on what it must find, so that a walk that finds
// nothing cannot make the template test pass vacuously.
func TestActionsReached(t *testing.T) {
	got := actionsReachedFrom(t, module+"/dynamo.(*Store).CreateTable")
	for _, want := range []string{"dynamodb:CreateTable", "dynamodb:DescribeTable", "dynamodb:UpdateTable", "dynamodb:UpdateTimeToLive", "dynamodb:DescribeTimeToLive"} {
		if _, ok := got[want]; !ok {
			t.Errorf("CreateTable: %s not found (found %v)", want, sortedKeys(got))
		}
	}
	if _, ok := got["dynamodb:PutItem"]; ok {
		t.Errorf("CreateTable: PutItem found, but CreateTable writes no item (found %v)", sortedKeys(got))
	}

	// Unfollow reads the friendship, then deletes it and uncounts it in one TransactWriteItems,
	// with a client mutation id's mark put in the same transaction: IAM checks the
	// transaction's Delete, Updates and Put, and has no action for the transaction.
	got = actionsReachedFrom(t, module+"/dynamo.(*Store).Unfollow")
	for _, want := range []string{"dynamodb:GetItem", "dynamodb:DeleteItem", "dynamodb:UpdateItem", "dynamodb:PutItem"} {
		if _, ok := got[want]; !ok {
			t.Errorf("Unfollow: %s not found (found %v)", want, sortedKeys(got))
		}
	}
	for _, never := range []string{"dynamodb:TransactWriteItems", "dynamodb:ConditionCheckItem", "dynamodb:Scan"} {
		if _, ok := got[never]; ok {
			t.Errorf("Unfollow: %s found, but it is no action Unfollow needs (found %v)", never, sortedKeys(got))
		}
	}
}
