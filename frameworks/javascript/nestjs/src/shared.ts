// The shared JavaScript helpers of ../common (CommonJS, also used by the other node stacks). The path is
// the same from src/ and from the compiled build/.
/* eslint-disable @typescript-eslint/no-require-imports */
export const { positiveInteger } = require('../../common/env.js');
export const hashing = require('../../common/hash.js');
export const items = require('../../common/items.js');
export const jsonComp = require('../../common/json-comp.js');
export const { bump } = require('../../common/sessions.js');
export const tfb = require('../../common/tfb.js');
export const { tlsFiles } = require('../../common/tls.js');
export const upload = require('../../common/upload.js');
