#!/bin/sh
# Stand-in for a real deployment (the demo's /deploy command runs it): prints the URL it would deploy to.
echo "https://${1:-staging}.example.invalid/"
