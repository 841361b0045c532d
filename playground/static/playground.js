// Bootstrap of the quickphotos GraphiQL playground. It lives in its own file, not inline in
// index.html, so that the page's Content-Security-Policy can forbid inline scripts.
(function () {
  'use strict';

  // The server writes the GraphQL endpoint's path into a meta tag of index.html.
  var meta = document.querySelector('meta[name="graphql-endpoint"]');
  var endpoint = new URL((meta && meta.content) || '/graphql', window.location.href).href;

  // miawright is the most followed user of the sample dataset (quickphotos sample, seed 1).
  var defaultQuery = [
    '# Welcome to the quickphotos GraphQL playground.',
    '#',
    '# Run a query with Ctrl-Enter or the pink button;',
    '# the Docs pane (top left) shows the whole schema.',
    '#',
    '# To see what a query costs in DynamoDB requests,',
    '# add this in the Headers tab below and look at',
    '# "extensions" in the response:',
    '#',
    '#   { "X-Quickphotos-Cost": "1" }',
    '',
    'query UserWithPhotosAndFollowers {',
    '  user(username: "miawright") {',
    '    username',
    '    name',
    '    status',
    '    followerCount',
    '    followingCount',
    '    photos(first: 5) {',
    '      edges {',
    '        node {',
    '          timestamp',
    '          url',
    '          reactionCounts { heart smiley thumbsUp sunglasses total }',
    '        }',
    '      }',
    '      pageInfo { hasNextPage endCursor }',
    '    }',
    '    followers(first: 5) {',
    '      totalCount',
    '      edges {',
    '        node {',
    '          follower { username name }',
    '          timestamp',
    '        }',
    '      }',
    '      pageInfo { hasNextPage endCursor }',
    '    }',
    '  }',
    '}',
    ''
  ].join('\n');

  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(React.createElement(GraphiQL, {
    fetcher: GraphiQL.createFetcher({ url: endpoint }),
    defaultQuery: defaultQuery,
    isHeadersEditorEnabled: true,
    shouldPersistHeaders: false,
    defaultEditorToolsVisibility: 'headers'
  }));
})();
