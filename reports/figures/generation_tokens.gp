# generation_tokens.gp: gnuplot 5.4 script written by samplab report.
# In this directory, `gnuplot generation_tokens.gp` remakes generation_tokens.png and generation_tokens.svg from generation_tokens.dat.
if (!exists("outstem")) outstem = "generation_tokens"
set encoding utf8
set title "Same seed, other tokens over a generation" noenhanced
set xlabel "step of the generation (from 0)" noenhanced
set ylabel "" noenhanced
set grid back lc rgb '#dddddd'
set key outside right top noenhanced
set terminal pngcairo size 1600,1080 font 'DejaVu Sans,13' linewidth 1.5
set output outstem.'.png'
set multiplot
set lmargin at screen 0.1
set rmargin at screen 0.74
set origin 0,0.37
set size 1,0.63
unset logscale y
set format y '%g'
set xrange [-0.6:23.6]
set xtics 0,1,23
set yrange [0.4:9.7]
set ytics ("generate()" 9, "llamacpp" 8, "hf" 7, "vllm" 6, "candle" 5, "torch" 4, "numpy" 3, "numpy-legacy" 2, "gsl" 1) noenhanced
unset grid
set grid xtics lc rgb '#e4e4e4'
set title "Seed 42, the logits of one transformers generation (run r002, V = 512): the token each framework draws, against the generation's own" noenhanced
set xlabel "step of the generation (from 0)"
set ylabel ""
set key at screen 0.755,0.955 left top Left reverse noenhanced spacing 1.4 samplen 1.5
plot 'generation_tokens.dat' index 0 using 1:2:3 with labels offset 0,1.05 font ',10' notitle, \
     '' index 0 using 1:($4==0?$2:NaN) with points pt 7 ps 1.3 lc rgb '#000000' title "generate(): the tokens generated", \
     '' index 0 using 1:($4==1?$2:NaN):6 with points pt 7 ps 1.3 lc rgb variable notitle, \
     '' index 0 using 1:($4>=2?$2:NaN):6 with points pt 6 ps 1.3 lw 1.5 lc rgb variable notitle, \
     '' index 0 using 1:($4==3?$2:NaN) with points pt 4 ps 3.2 lw 2.5 lc rgb '#000000' title "first step that differs from generate()", \
     keyentry with points pt 7 ps 1.3 lc rgb '#707070' title "filled: the same token as generate()", \
     keyentry with points pt 6 ps 1.3 lw 1.5 lc rgb '#707070' title "open: another token"
set origin 0,0
set size 1,0.37
set logscale y
set format y '%g'
set yrange [0.5:4096]
set ytics auto
unset grid
set grid ytics xtics lc rgb '#e4e4e4'
set title "Random words each framework's generator gives at each step" noenhanced
set xlabel "step of the generation (from 0)"
set ylabel "words at this step (log scale)"
set key at graph 0.02,0.70 left top Left reverse noenhanced spacing 1.4 samplen 2.5 opaque box
plot 'generation_tokens.dat' index 1 using 1:($2>0?$2:NaN) with linespoints lw 2 pt 7 ps 1.2 dt 1 lc rgb '#000000' title "llamacpp, numpy-legacy: 2 words each step", \
     'generation_tokens.dat' index 1 using 1:($3>0?$3:NaN) with linespoints lw 2 pt 5 ps 1.2 dt 2 lc rgb '#555555' title "hf, vllm, torch: 1024 words each step", \
     'generation_tokens.dat' index 1 using 1:($4>0?$4:NaN) with linespoints lw 2 pt 9 ps 1.2 dt 3 lc rgb '#999999' title "candle, numpy (64-bit), gsl: 1 word each step"
unset multiplot
unset output
set terminal svg size 1600,1080 font 'DejaVu Sans,13' linewidth 1.5 background '#ffffff'
set output outstem.'.svg'
set multiplot
set lmargin at screen 0.1
set rmargin at screen 0.74
set origin 0,0.37
set size 1,0.63
unset logscale y
set format y '%g'
set xrange [-0.6:23.6]
set xtics 0,1,23
set yrange [0.4:9.7]
set ytics ("generate()" 9, "llamacpp" 8, "hf" 7, "vllm" 6, "candle" 5, "torch" 4, "numpy" 3, "numpy-legacy" 2, "gsl" 1) noenhanced
unset grid
set grid xtics lc rgb '#e4e4e4'
set title "Seed 42, the logits of one transformers generation (run r002, V = 512): the token each framework draws, against the generation's own" noenhanced
set xlabel "step of the generation (from 0)"
set ylabel ""
set key at screen 0.755,0.955 left top Left reverse noenhanced spacing 1.4 samplen 1.5
plot 'generation_tokens.dat' index 0 using 1:2:3 with labels offset 0,1.05 font ',10' notitle, \
     '' index 0 using 1:($4==0?$2:NaN) with points pt 7 ps 1.3 lc rgb '#000000' title "generate(): the tokens generated", \
     '' index 0 using 1:($4==1?$2:NaN):6 with points pt 7 ps 1.3 lc rgb variable notitle, \
     '' index 0 using 1:($4>=2?$2:NaN):6 with points pt 6 ps 1.3 lw 1.5 lc rgb variable notitle, \
     '' index 0 using 1:($4==3?$2:NaN) with points pt 4 ps 3.2 lw 2.5 lc rgb '#000000' title "first step that differs from generate()", \
     keyentry with points pt 7 ps 1.3 lc rgb '#707070' title "filled: the same token as generate()", \
     keyentry with points pt 6 ps 1.3 lw 1.5 lc rgb '#707070' title "open: another token"
set origin 0,0
set size 1,0.37
set logscale y
set format y '%g'
set yrange [0.5:4096]
set ytics auto
unset grid
set grid ytics xtics lc rgb '#e4e4e4'
set title "Random words each framework's generator gives at each step" noenhanced
set xlabel "step of the generation (from 0)"
set ylabel "words at this step (log scale)"
set key at graph 0.02,0.70 left top Left reverse noenhanced spacing 1.4 samplen 2.5 opaque box
plot 'generation_tokens.dat' index 1 using 1:($2>0?$2:NaN) with linespoints lw 2 pt 7 ps 1.2 dt 1 lc rgb '#000000' title "llamacpp, numpy-legacy: 2 words each step", \
     'generation_tokens.dat' index 1 using 1:($3>0?$3:NaN) with linespoints lw 2 pt 5 ps 1.2 dt 2 lc rgb '#555555' title "hf, vllm, torch: 1024 words each step", \
     'generation_tokens.dat' index 1 using 1:($4>0?$4:NaN) with linespoints lw 2 pt 9 ps 1.2 dt 3 lc rgb '#999999' title "candle, numpy (64-bit), gsl: 1 word each step"
unset multiplot
unset output
