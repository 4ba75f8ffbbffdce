/**
 * The Python programs the proof runs inside the sandbox, kept as strings so that the build ships
 * them with the rest of core and no tool lints them as project files. Both print one JSON line
 * after MARK, which check-python.ts reads; anything else they print is the project's own output.
 */

export const PY_MARK = '@@wolfpack-json@@';

/**
 * analyze.py ROOT FILES_JSON DECLARED_JSON: compiles every file (no .pyc written), resolves every
 * import (project module, standard library, installed, declared but not installable here, or
 * nowhere), checks `from local import name` against what the module defines, and lists test
 * functions and entry points. Nothing of the project is executed.
 */
export const PY_ANALYZE = String.raw`
import ast, importlib.util, json, os, sys

root, files, declared = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
MARK = '@@wolfpack-json@@'
# Import names that differ from the name on PyPI; a declared distribution covers these imports.
ALIASES = {'PIL': 'pillow', 'yaml': 'pyyaml', 'bs4': 'beautifulsoup4', 'sklearn': 'scikit_learn', 'cv2': 'opencv_python',
    'dotenv': 'python_dotenv', 'jwt': 'pyjwt', 'dateutil': 'python_dateutil', 'attr': 'attrs', 'Crypto': 'pycryptodome',
    'serial': 'pyserial', 'magic': 'python_magic', 'telegram': 'python_telegram_bot', 'discord': 'discord.py',
    'multipart': 'python_multipart', 'docx': 'python_docx', 'fitz': 'pymupdf', 'jose': 'python_jose', 'google': 'google'}
TEST_TOOLS = {'pytest', 'hypothesis', 'mock', 'pytest_asyncio', 'freezegun', 'responses'}
norm = lambda name: name.lower().replace('-', '_').replace('.', '_')
declared = {norm(d) for d in declared}
fileset = set(files)
trees, syntax, imports_out, local_edges, blocked_direct, entries, tests = {}, [], [], {}, {}, [], {}

for path in files:
    try:
        with open(os.path.join(root, path), encoding='utf-8') as handle:
            source = handle.read()
        trees[path] = ast.parse(source, path)
        compile(trees[path], path, 'exec')
    except SyntaxError as error:
        syntax.append({'path': path, 'line': error.lineno, 'message': type(error).__name__ + ': ' + str(error.msg), 'text': (error.text or '').rstrip()})
    except (UnicodeDecodeError, ValueError) as error:
        syntax.append({'path': path, 'line': None, 'message': type(error).__name__ + ': ' + str(error), 'text': ''})

def local_module(dotted, roots):
    parts = dotted.split('.')
    for base in roots:
        stem = os.path.normpath(os.path.join(base, *parts)) if base else os.path.join(*parts)
        stem = '' if stem == '.' else stem
        for candidate in (stem + '.py', os.path.join(stem, '__init__.py')):
            if candidate in fileset:
                return candidate
        if any(f.startswith(stem + '/') for f in fileset):
            return stem + '/'
    return None

def defined_names(tree):
    names, open_ended = set(), False
    def visit(body):
        nonlocal open_ended
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
                if node.name == '__getattr__': open_ended = True
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                for alias in node.names:
                    if alias.name == '*': open_ended = True
                    names.add((alias.asname or alias.name).split('.')[0])
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor, ast.With, ast.AsyncWith)):
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store): names.add(sub.id)
            for field in ('body', 'orelse', 'finalbody', 'handlers'):
                inner = getattr(node, field, None)
                if isinstance(inner, list) and not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)): visit(inner)
    visit(tree.body)
    for node in ast.walk(tree):
        if isinstance(node, ast.Global): names.update(node.names)
        if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name): names.add(node.target.id)
    return names, open_ended

def guarded(node, parents):
    for parent in parents:
        if isinstance(parent, ast.Try) and any(h.type is None or 'Error' in ast.unparse(h.type) or 'Exception' in ast.unparse(h.type) for h in parent.handlers):
            return True
        if isinstance(parent, ast.If) and 'TYPE_CHECKING' in ast.unparse(parent.test):
            return True
    return False

def walk_with_parents(tree):
    stack = [(tree, [])]
    while stack:
        node, parents = stack.pop()
        yield node, parents
        for child in ast.iter_child_nodes(node):
            stack.append((child, parents + [node]))

def third_party(top, path, line, is_test):
    if top in sys.stdlib_module_names or top == '__future__':
        return
    try:
        if importlib.util.find_spec(top) is not None: return
    except (ImportError, ValueError):
        pass
    dist = norm(ALIASES.get(top, top))
    if dist in declared or (is_test and top in TEST_TOOLS):
        blocked_direct.setdefault(path, set()).add(top)
        return
    imported = {norm(ALIASES.get(t, t)) for t in all_tops}
    if declared - imported:
        blocked_direct.setdefault(path, set()).add(top)  # an unmatched declared package may provide it
        return
    imports_out.append({'path': path, 'line': line, 'module': top, 'kind': 'nowhere'})

def check_from(path, line, target, name, edges):
    # A folder target ('pkg/', or a package's __init__.py) may provide the name as a submodule.
    folder = target[:-1] if target.endswith('/') else (os.path.dirname(target) if target.endswith('__init__.py') else None)
    if folder is not None:
        sub = local_module(name, [folder])
        if sub is not None:
            edges.add(sub)
            return
        if target.endswith('/'):
            imports_out.append({'path': path, 'line': line, 'module': target, 'name': name, 'kind': 'missing-name'})
            return
    edges.add(target)
    if name == '*' or target not in trees: return
    names, open_ended = defined_names(trees[target])
    if name not in names and not open_ended:
        imports_out.append({'path': path, 'line': line, 'module': target, 'name': name, 'kind': 'missing-name'})

all_tops = set()
for path, tree in trees.items():
    for node in ast.walk(tree):
        if isinstance(node, ast.Import): all_tops.update(a.name.split('.')[0] for a in node.names)
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module: all_tops.add(node.module.split('.')[0])

for path, tree in sorted(trees.items()):
    here = os.path.dirname(path)
    roots = ['', here, 'src']
    if 'sys.path' in ast.unparse(tree):
        roots += sorted({os.path.dirname(f) for f in fileset})  # the file adds folders to sys.path itself
    is_test = os.path.basename(path).startswith('test') or path.endswith('_test.py') or '/tests/' in '/' + path
    edges = local_edges.setdefault(path, set())
    for node, parents in walk_with_parents(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)) or guarded(node, parents):
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level > 0:
                base = here
                for _ in range(node.level - 1): base = os.path.dirname(base)
                if node.module: target = local_module(node.module, [base])
                else: target = os.path.join(base, '__init__.py') if os.path.join(base, '__init__.py') in fileset else (base or '.') + '/'
                shown = '.' * node.level + (node.module or '')
            else:
                target, shown = local_module(node.module, roots), node.module
            if target is None:
                # A submodule missing from a package of the project's own is missing, not third-party.
                if node.level > 0 or local_module(node.module.split('.')[0], roots) is not None:
                    imports_out.append({'path': path, 'line': node.lineno, 'module': shown, 'kind': 'missing-local'})
                else: third_party(node.module.split('.')[0], path, node.lineno, is_test)
                continue
            for alias in node.names: check_from(path, node.lineno, target, alias.name, edges)
        else:
            for alias in node.names:
                target = local_module(alias.name, roots)
                if target is None and local_module(alias.name.split('.')[0], roots) is not None:
                    imports_out.append({'path': path, 'line': node.lineno, 'module': alias.name, 'kind': 'missing-local'})
                elif target is None: third_party(alias.name.split('.')[0], path, node.lineno, is_test)
                else: edges.add(target)
    source = ast.unparse(tree)
    if "__name__ == '__main__'" in source or '__name__ == "__main__"' in source:
        entries.append(path)
    if is_test:
        info = {'functions': 0, 'fixtures': []}
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith('test'):
                info['functions'] += 1
                if node.args.args: info['fixtures'].append(node.name)
            if isinstance(node, ast.ClassDef): info['functions'] += sum(1 for b in node.body if isinstance(b, ast.FunctionDef) and b.name.startswith('test'))
        tests[path] = info

def blockers(path, seen):
    if path in seen: return set()
    seen.add(path)
    found = set(blocked_direct.get(path, ()))
    for dep in local_edges.get(path, ()):
        found |= blockers(dep, seen)
    return found

blocked = {path: sorted(blockers(path, set())) for path in trees}
print(MARK + json.dumps({'syntax': syntax, 'imports': imports_out, 'blocked': {k: v for k, v in blocked.items() if v},
    'entries': entries, 'tests': tests, 'pytest': importlib.util.find_spec('pytest') is not None}))
`;

/**
 * run_tests.py ROOT FILES_JSON: pytest when this Python has it; else unittest, which also runs
 * plain pytest-style `test_*` functions and `Test*` classes that take no fixtures. Prints the
 * runner's report, then MARK with counts and each failure's traceback.
 */
export const PY_RUN_TESTS = String.raw`
import importlib, importlib.util, inspect, io, json, os, sys, traceback, unittest

root, files = sys.argv[1], json.loads(sys.argv[2])
MARK = '@@wolfpack-json@@'
sys.path.insert(0, root)
os.chdir(root)
if importlib.util.find_spec('pytest') is not None:
    import pytest
    code = pytest.main(['-q', '-p', 'no:cacheprovider', *files])
    sys.exit(int(code))

suite, load_errors, fixtures = unittest.TestSuite(), [], []
loader = unittest.TestLoader()
for path in files:
    folder = os.path.dirname(os.path.join(root, path))
    if folder not in sys.path: sys.path.insert(1, folder)
    dotted = path[:-3].replace('/', '.')
    try:
        package = os.path.dirname(path)
        if package and os.path.exists(os.path.join(root, package, '__init__.py')):
            module = importlib.import_module(dotted)
        else:
            spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], os.path.join(root, path))
            module = importlib.util.module_from_spec(spec)
            sys.modules[spec.name] = module
            spec.loader.exec_module(module)
    except BaseException:
        load_errors.append({'test': path, 'path': path, 'traceback': traceback.format_exc()})
        continue
    suite.addTests(loader.loadTestsFromModule(module))
    for name, value in vars(module).items():
        if name.startswith('test') and inspect.isfunction(value) and value.__module__ == module.__name__:
            if inspect.signature(value).parameters: fixtures.append(path + '::' + name)
            else:
                case = unittest.FunctionTestCase(value, description=path + '::' + name)
                suite.addTest(case)
        if name.startswith('Test') and inspect.isclass(value) and not issubclass(value, unittest.TestCase) and value.__module__ == module.__name__:
            for method in [m for m in dir(value) if m.startswith('test')]:
                def run(cls=value, method=method):
                    instance = cls()
                    if hasattr(instance, 'setup_method'): instance.setup_method(getattr(instance, method))
                    getattr(instance, method)()
                if inspect.signature(getattr(value, method)).parameters.__len__() > 1: fixtures.append(path + '::' + name + '.' + method)
                else: suite.addTest(unittest.FunctionTestCase(run, description=path + '::' + name + '.' + method))

result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(suite)
describe = lambda test: test.id() if not isinstance(test, unittest.FunctionTestCase) else str(test)
failures = [{'test': describe(t), 'traceback': tb} for t, tb in result.failures + result.errors] + load_errors
print(MARK + json.dumps({'ran': result.testsRun, 'failed': len(failures), 'failures': failures, 'fixtures': fixtures}))
sys.exit(0 if not failures else 1)
`;
