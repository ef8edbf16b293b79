/** The pet shop's Next.js configuration: none of its own. */
import type { NextConfig } from 'next';

const config: NextConfig = {};

export default config;
