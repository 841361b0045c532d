// checkArguments is an Apollo Server plugin that checks, before any resolver runs, the
// arguments quickphotos checks before execution (api/arguments.go): every connection's
// `first`, and the arguments of Query.user, Query.users and Query.photo. Checked only in the
// resolvers, an invalid `first` on a non-null connection would null its parent after the
// parent's read was sent; refused here, the operation reads nothing and answers BAD_USER_INPUT
// at the argument's path, with no data, as quickphotos does.

import { GraphQLError, Kind, getArgumentValues, getNamedType, getVariableValues, isObjectType } from 'graphql';
import { DEFAULT_PAGE_SIZE, canonicalPhotoKey, validatePage, validateUsername } from './validate.mjs';

const checks = {
  'Query.user': (args) => validateUsername('username', args.username),
  'Query.users': (args) => {
    if (args.usernames.length > 100) throw new Error(`usernames: at most 100 usernames, got ${args.usernames.length}`);
    for (const u of args.usernames) validateUsername('usernames', u);
  },
  'Query.photo': (args) => canonicalPhotoKey(args.owner, args.timestamp),
};

function checkField(parent, def, node, variables) {
  const hasFirst = def.args.some((a) => a.name === 'first');
  const check = checks[`${parent.name}.${def.name}`];
  if (!hasFirst && !check) return;
  const args = getArgumentValues(def, node, variables);
  if (hasFirst) validatePage(args.first ?? DEFAULT_PAGE_SIZE);
  check?.(args);
}

export const checkArguments = {
  async requestDidStart() {
    return {
      async didResolveOperation({ operation, schema, request, document }) {
        const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {});
        if (coerced.errors) return; // execution reports them
        const variables = coerced.coerced;
        const fragments = Object.fromEntries(document.definitions
          .filter((d) => d.kind === Kind.FRAGMENT_DEFINITION).map((d) => [d.name.value, d]));
        const visited = new Set();
        const walk = (type, selections, path) => {
          for (const s of selections) {
            if (s.kind === Kind.FIELD) {
              const def = isObjectType(type) ? type.getFields()[s.name.value] : undefined;
              if (!def) continue;
              const fieldPath = [...path, (s.alias ?? s.name).value];
              try {
                checkField(type, def, s, variables);
              } catch (err) {
                throw new GraphQLError(err.message, {
                  path: fieldPath,
                  extensions: { code: 'BAD_USER_INPUT', http: { status: 200 } },
                });
              }
              if (s.selectionSet) walk(getNamedType(def.type), s.selectionSet.selections, fieldPath);
            } else if (s.kind === Kind.INLINE_FRAGMENT) {
              walk(s.typeCondition ? schema.getType(s.typeCondition.name.value) : type, s.selectionSet.selections, path);
            } else if (s.kind === Kind.FRAGMENT_SPREAD && !visited.has(s.name.value)) {
              visited.add(s.name.value);
              const f = fragments[s.name.value];
              if (f) walk(schema.getType(f.typeCondition.name.value), f.selectionSet.selections, path);
            }
          }
        };
        walk(schema.getRootType(operation.operation), operation.selectionSet.selections, []);
      },
    };
  },
};
